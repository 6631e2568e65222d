<?php

declare(strict_types=1);

namespace OCA\DocsUnifiedSearch\Search;

use OCP\Search\IExternalProvider;

/**
 * On Nextcloud 32+: the provider is external (searched only with "connected services" on)
 * unless the service says always-search is on.
 */
class ExternalDocumentsProvider extends DocumentsProvider implements IExternalProvider {
	public function isExternalProvider(): bool {
		$listing = $this->listing();
		return !is_array($listing) || ($listing['isExternalProvider'] ?? true) !== false;
	}
}
