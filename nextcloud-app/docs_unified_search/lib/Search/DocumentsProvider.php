<?php

declare(strict_types=1);

namespace OCA\DocsUnifiedSearch\Search;

use OCA\DocsUnifiedSearch\Bridge\Answer;
use OCA\DocsUnifiedSearch\Bridge\BridgeClient;
use OCP\IDateTimeZone;
use OCP\IL10N;
use OCP\IURLGenerator;
use OCP\IUser;
use OCP\IUserSession;
use OCP\Search\IExternalProvider;
use OCP\Search\IFilteringProvider;
use OCP\Search\ISearchQuery;
use OCP\Search\SearchResult;
use OCP\Search\SearchResultEntry;

/**
 * The unified-search provider `docs_unified_search_documents`: whether it is offered, whether it
 * is external (asked by the search modal only with "Search connected services" on), and every
 * result come from the service for the acting user.
 */
class DocumentsProvider implements IFilteringProvider, IExternalProvider {
	public const ID = 'docs_unified_search_documents';
	private const PATH = '/ocs/v2.php/search/providers';

	/** The service's provider entry for this request's user; false when it is not offered. */
	private array|false|null $listing = null;

	public function __construct(
		private BridgeClient $bridge,
		private IUserSession $session,
		private IDateTimeZone $timeZone,
		private IURLGenerator $urls,
		private IL10N $l10n,
	) {
	}

	public function getId(): string {
		return self::ID;
	}

	/** The app's own name, in the user's language (Nextcloud's IL10N, l10n/); the ID while the service does not offer it. */
	public function getName(): string {
		return is_array($this->listing()) ? $this->l10n->t('Archive documents') : self::ID;
	}

	public function getOrder(string $route, array $routeParameters): ?int {
		$listing = $this->listing();
		$order = is_array($listing) ? ($listing['order'] ?? 50) : null;
		return is_int($order) || $order === null ? $order : 50;
	}

	public function isExternalProvider(): bool {
		// External unless the service says always-search is on; not offered counts as external.
		$listing = $this->listing();
		return !is_array($listing) || ($listing['isExternalProvider'] ?? true) !== false;
	}

	public function getSupportedFilters(): array {
		return ['term', 'since', 'until'];
	}

	public function getAlternateIds(): array {
		return [];
	}

	public function getCustomFilters(): array {
		return [];
	}

	public function search(IUser $user, ISearchQuery $query): SearchResult {
		$params = ['term' => $query->getTerm(), 'limit' => $query->getLimit()];
		if ($query->getCursor() !== null) {
			$params['cursor'] = (string)$query->getCursor();
		}
		foreach (['since', 'until'] as $name) {
			$moment = $query->getFilter($name)?->get();
			if ($moment instanceof \DateTimeInterface) {
				// The search bar sends the user's midnight as a UTC moment; written in the user's
				// zone it keeps the day the user picked (the service reads the written offset).
				$params[$name] = \DateTimeImmutable::createFromInterface($moment)->setTimezone($this->timeZone->getTimeZone($moment->getTimestamp()))->format(DATE_ATOM);
			}
		}
		$data = $this->bridge->ocsData($this->bridge->call('GET', self::PATH . '/' . self::ID . '/search', $params, $user->getUID(), false, null, 12));
		try {
			return $this->result($data ?? []);
		} catch (\UnexpectedValueException $problem) {
			$this->bridge->wrongShape('search', $problem);
			return SearchResult::complete($this->l10n->t('Archive documents'), []);
		}
	}

	/** @throws \UnexpectedValueException */
	private function result(array $data): SearchResult {
		$own = $this->urls->getAbsoluteURL('/');
		$entries = [];
		foreach (Answer::list($data['entries'] ?? [], 'entries') as $at => $entry) {
			$field = static fn (string $name): string => "entries[$at].$name";
			$entry = Answer::map($entry, $field(''));
			$result = new SearchResultEntry(
				Answer::url($entry['thumbnailUrl'] ?? '', $field('thumbnailUrl'), $own),
				Answer::text($entry['title'] ?? '', $field('title'), Answer::TITLE_LENGTH),
				Answer::text($entry['subline'] ?? '', $field('subline')),
				Answer::url($entry['resourceUrl'] ?? '', $field('resourceUrl'), $own),
				Answer::url($entry['icon'] ?? '', $field('icon'), $own),
				Answer::bool($entry['rounded'] ?? false, $field('rounded')),
			);
			foreach (Answer::map($entry['attributes'] ?? [], $field('attributes')) as $key => $value) {
				$result->addAttribute(Answer::text($key, $field('attributes'), 100), Answer::text($value, $field('attributes')));
			}
			$entries[] = $result;
		}
		$name = $this->l10n->t('Archive documents');
		$cursor = $data['cursor'] ?? null;
		// No cursor: nothing left (Nextcloud 33+ types the cursor of a paginated result non-null).
		return $cursor === null ? SearchResult::complete($name, $entries) : SearchResult::paginated($name, $entries, Answer::text($cursor, 'cursor', 100));
	}

	/** @return array<mixed>|false */
	private function listing(): array|false {
		if ($this->listing === null) {
			$user = $this->session->getUser();
			$data = $user === null ? null : $this->bridge->ocsData($this->bridge->call('GET', self::PATH, [], $user->getUID(), false, null, 5));
			$this->listing = false;
			foreach ($data ?? [] as $provider) {
				if (is_array($provider) && ($provider['id'] ?? null) === self::ID) {
					$this->listing = $provider;
				}
			}
		}
		return $this->listing;
	}
}
