<?php

declare(strict_types=1);

namespace OCA\DocsUnifiedSearch\SetupCheck;

use OCA\DocsUnifiedSearch\Bridge\BridgeClient;
use OCP\IL10N;
use OCP\SetupCheck\ISetupCheck;
use OCP\SetupCheck\SetupResult;

/** The overview check: the service's verdict from stored data, asked without a user (occ runs it too). */
class OverviewCheck implements ISetupCheck {
	public function __construct(
		private BridgeClient $bridge,
		private IL10N $l10n,
	) {
	}

	public function getCategory(): string {
		return 'system';
	}

	public function getName(): string {
		return $this->l10n->t('Document archive search');
	}

	public function run(): SetupResult {
		$answer = $this->bridge->call('GET', '/apps/docs_unified_search/settings/overview', [], '', false, null, 5);
		$body = $answer !== null && $answer['status'] === 200 ? $answer['body'] : null;
		if ($body === null) {
			return SetupResult::warning($this->l10n->t('The docs-unified-search service did not answer: check that it runs, that service_url names it and that both sides hold the same bridge secret.'));
		}
		$text = implode(' ', array_map('strval', $body['messages'] ?? []));
		return ($body['severity'] ?? '') === 'success' ? SetupResult::success($text) : SetupResult::warning($text, (string)($body['link'] ?? '') ?: null);
	}
}
