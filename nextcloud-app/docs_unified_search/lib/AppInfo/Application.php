<?php

declare(strict_types=1);

namespace OCA\DocsUnifiedSearch\AppInfo;

use OCA\DocsUnifiedSearch\Dashboard\RecentWidget;
use OCA\DocsUnifiedSearch\Reference\DocumentsReferenceProvider;
use OCA\DocsUnifiedSearch\Search\DocumentsProvider;
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
		$context->registerSearchProvider(DocumentsProvider::class);
		$context->registerReferenceProvider(DocumentsReferenceProvider::class);
		$context->registerDashboardWidget(RecentWidget::class);
		$context->registerSetupCheck(OverviewCheck::class);
	}

	public function boot(IBootContext $context): void {
	}
}
