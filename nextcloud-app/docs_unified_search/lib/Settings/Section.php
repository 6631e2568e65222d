<?php

declare(strict_types=1);

namespace OCA\DocsUnifiedSearch\Settings;

use OCA\DocsUnifiedSearch\AppInfo\Application;
use OCP\IL10N;
use OCP\IURLGenerator;
use OCP\Settings\IIconSection;

class Section implements IIconSection {
	public function __construct(
		private IURLGenerator $urls,
		private IL10N $l10n,
	) {
	}

	public function getID(): string {
		return Application::APP_ID;
	}

	public function getName(): string {
		return $this->l10n->t('Document archive search');
	}

	public function getPriority(): int {
		return 80;
	}

	public function getIcon(): string {
		return $this->urls->imagePath(Application::APP_ID, 'app-dark.svg');
	}
}
