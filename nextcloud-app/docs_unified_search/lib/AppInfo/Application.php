<?php

declare(strict_types=1);

namespace OCA\DocsUnifiedSearch\AppInfo;

use OCA\DocsUnifiedSearch\Dashboard\RecentWidget;
use OCA\DocsUnifiedSearch\Reference\DocumentsReferenceProvider;
use OCA\DocsUnifiedSearch\Search\DocumentsProvider;
use OCA\DocsUnifiedSearch\Search\ExternalDocumentsProvider;
use OCA\DocsUnifiedSearch\SetupCheck\OverviewCheck;
use OCP\AppFramework\App;
use OCP\AppFramework\Bootstrap\IBootContext;
use OCP\AppFramework\Bootstrap\IBootstrap;
use OCP\AppFramework\Bootstrap\IRegistrationContext;

class Application extends App implements IBootstrap {
	public const APP_ID = 'docs_unified_search';

	public function __construct() {
		parent::__construct(self::APP_ID);
	}

	public function register(IRegistrationContext $context): void {
		// Nextcloud 32+ lets a provider say it is external (searched only with "connected services"
		// on); 31 has no such interface, and a class implementing a missing one cannot load.
		$external = interface_exists('OCP\Search\IExternalProvider');
		$context->registerSearchProvider($external ? ExternalDocumentsProvider::class : DocumentsProvider::class);
		$context->registerReferenceProvider(DocumentsReferenceProvider::class);
		$context->registerDashboardWidget(RecentWidget::class);
		$context->registerSetupCheck(OverviewCheck::class);
	}

	public function boot(IBootContext $context): void {
	}
}
