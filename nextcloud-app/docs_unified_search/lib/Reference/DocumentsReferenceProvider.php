<?php

declare(strict_types=1);

namespace OCA\DocsUnifiedSearch\Reference;

use OCA\DocsUnifiedSearch\AppInfo\Application;
use OCA\DocsUnifiedSearch\Bridge\BridgeClient;
use OCA\DocsUnifiedSearch\Search\DocumentsProvider;
use OCP\Collaboration\Reference\ADiscoverableReferenceProvider;
use OCP\Collaboration\Reference\IReference;
use OCP\Collaboration\Reference\ISearchableReferenceProvider;
use OCP\Collaboration\Reference\Reference;
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
	) {
	}

	public function getId(): string {
		return 'docs_unified_search-documents';
	}

	public function getTitle(): string {
		return 'Archive documents';
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
		$reference = new Reference($referenceText);
		$reference->setAccessible((bool)($answer['accessible'] ?? false));
		$open = $answer['openGraphObject'] ?? [];
		$rich = ($answer['accessible'] ?? false) === true && is_array($answer['richObject'] ?? null) ? $answer['richObject'] : null;
		if ($rich !== null) {
			$reference->setTitle((string)($open['name'] ?? ''));
			$reference->setDescription((string)($open['description'] ?? ''));
			$reference->setImageUrl((string)($open['thumb'] ?? ''));
			$reference->setUrl((string)($open['link'] ?? $referenceText));
		}
		// Not accessible: the shape Nextcloud's Files provider gives a file the reader cannot open.
		$reference->setRichObject((string)($answer['richObjectType'] ?? 'file'), $rich);
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
