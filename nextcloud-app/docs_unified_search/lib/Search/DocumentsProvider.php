<?php

declare(strict_types=1);

namespace OCA\DocsUnifiedSearch\Search;

use OCA\DocsUnifiedSearch\Bridge\BridgeClient;
use OCP\IDateTimeZone;
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
	) {
	}

	public function getId(): string {
		return self::ID;
	}

	public function getName(): string {
		$listing = $this->listing();
		return is_array($listing) ? (string)($listing['name'] ?? self::ID) : self::ID;
	}

	public function getOrder(string $route, array $routeParameters): ?int {
		$listing = $this->listing();
		return is_array($listing) ? (int)($listing['order'] ?? 50) : null;
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
		$entries = [];
		foreach (($data['entries'] ?? []) as $entry) {
			$result = new SearchResultEntry((string)$entry['thumbnailUrl'], (string)$entry['title'], (string)$entry['subline'], (string)$entry['resourceUrl'], (string)$entry['icon'], (bool)$entry['rounded']);
			foreach (($entry['attributes'] ?? []) as $key => $value) {
				$result->addAttribute((string)$key, (string)$value);
			}
			$entries[] = $result;
		}
		$name = (string)($data['name'] ?? $this->getName());
		$cursor = $data['cursor'] ?? null;
		// No cursor: nothing left (Nextcloud 33+ types the cursor of a paginated result non-null).
		return $cursor === null ? SearchResult::complete($name, $entries) : SearchResult::paginated($name, $entries, (string)$cursor);
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
