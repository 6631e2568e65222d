<?php

declare(strict_types=1);

namespace OCA\DocsUnifiedSearch\Reference;

use OCA\DocsUnifiedSearch\AppInfo\Application;
use OCA\DocsUnifiedSearch\Bridge\Answer;
use OCA\DocsUnifiedSearch\Bridge\BridgeClient;
use OCA\DocsUnifiedSearch\Search\DocumentsProvider;
use OCP\Collaboration\Reference\ADiscoverableReferenceProvider;
use OCP\Collaboration\Reference\IReference;
use OCP\Collaboration\Reference\ISearchableReferenceProvider;
use OCP\Collaboration\Reference\Reference;
use OCP\IL10N;
use OCP\IURLGenerator;
use OCP\IUserSession;

/**
 * The smart-picker provider `docs_unified_search-documents`: the picker searches through the
 * search provider; a file link the service knows as an archive file resolves here (with the
 * preview only for a reader who can open it); every other link, other files' too, is left to
 * Nextcloud's own Files provider.
 */
class DocumentsReferenceProvider extends ADiscoverableReferenceProvider implements ISearchableReferenceProvider {
	/** @var array<string, array<mixed>|null> the service's answer per link, for this request */
	private array $answers = [];

	public function __construct(
		private BridgeClient $bridge,
		private IURLGenerator $urls,
		private IUserSession $session,
		private IL10N $l10n,
	) {
	}

	public function getId(): string {
		return 'docs_unified_search-documents';
	}

	public function getTitle(): string {
		return $this->l10n->t('Archive documents');
	}

	public function getOrder(): int {
		return 50;
	}

	public function getIconUrl(): string {
		return $this->urls->getAbsoluteURL($this->urls->imagePath(Application::APP_ID, 'app.svg'));
	}

	public function getSupportedSearchProviderIds(): array {
		return [DocumentsProvider::ID];
	}

	public function matchReference(string $referenceText): bool {
		// A cheap look first: only file links go to the service, which decides.
		if (!str_contains($referenceText, '/f/') && !str_contains($referenceText, 'fileid=')) {
			return false;
		}
		return $this->answer($referenceText) !== null;
	}

	public function resolveReference(string $referenceText): ?IReference {
		$answer = $this->answer($referenceText);
		if ($answer === null) {
			return null;
		}
		$own = $this->urls->getAbsoluteURL('/');
		try {
			$accessible = Answer::bool($answer['accessible'] ?? false, 'accessible');
			$open = Answer::map($answer['openGraphObject'] ?? [], 'openGraphObject');
			$rich = $accessible && ($answer['richObject'] ?? null) !== null ? self::cleaned(Answer::map($answer['richObject'], 'richObject'), 'richObject', $own) : null;
			$type = Answer::text($answer['richObjectType'] ?? 'file', 'richObjectType', 100);
			$reference = new Reference($referenceText);
			$reference->setAccessible($accessible);
			if ($rich !== null) {
				$reference->setTitle(Answer::text($open['name'] ?? '', 'openGraphObject.name', Answer::TITLE_LENGTH));
				$reference->setDescription(Answer::text($open['description'] ?? '', 'openGraphObject.description'));
				$reference->setImageUrl(Answer::url($open['thumb'] ?? '', 'openGraphObject.thumb', $own));
				$link = Answer::url($open['link'] ?? $referenceText, 'openGraphObject.link', $own);
				$reference->setUrl($link === '' ? $referenceText : $link);
			}
		} catch (\UnexpectedValueException $problem) {
			$this->bridge->wrongShape('reference', $problem);
			return null;
		}
		// Not accessible: the shape Nextcloud's Files provider gives a file the reader cannot open.
		$reference->setRichObject($type, $rich);
		return $reference;
	}

	public function getCachePrefix(string $referenceId): string {
		return $referenceId;
	}

	public function getCacheKey(string $referenceId): ?string {
		// What a reader sees depends on the reader.
		return $this->session->getUser()?->getUID() ?? '';
	}

	/** @return array<mixed>|null */
	/**
	 * The rich object with every text capped and cleaned, every link (a key naming a link or URL)
	 * Nextcloud's own or emptied, numbers and booleans kept (it is rendered by Nextcloud's Files
	 * widget, which takes a file's fields).
	 *
	 * @throws \UnexpectedValueException
	 */
	private static function cleaned(array $object, string $what, string $own): array {
		$clean = [];
		foreach ($object as $key => $value) {
			$clean[$key] = match (true) {
				is_array($value) => self::cleaned($value, "$what.$key", $own),
				is_string($value) && preg_match('/link|url/i', (string)$key) === 1 => Answer::url($value, "$what.$key", $own),
				is_string($value) => Answer::text($value, "$what.$key"),
				is_int($value), is_float($value), is_bool($value), $value === null => $value,
			};
		}
		return $clean;
	}

	private function answer(string $link): ?array {
		if (!array_key_exists($link, $this->answers)) {
			$user = $this->session->getUser();
			$data = $user === null ? null : $this->bridge->ocsData($this->bridge->call('GET', '/ocs/v2.php/references/resolve', ['reference' => $link], $user->getUID()));
			$resolved = $data['references'][$link] ?? null;
			$this->answers[$link] = is_array($resolved) ? $resolved : null;
		}
		return $this->answers[$link];
	}
}
