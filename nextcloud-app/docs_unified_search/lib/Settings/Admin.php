<?php

declare(strict_types=1);

namespace OCA\DocsUnifiedSearch\Settings;

use OCA\DocsUnifiedSearch\AppInfo\Application;
use OCA\DocsUnifiedSearch\Bridge\BridgeClient;
use OCP\AppFramework\Http\TemplateResponse;
use OCP\IURLGenerator;
use OCP\IUserSession;
use OCP\Settings\ISettings;

/** The admin section: the service renders the form; Nextcloud's routes of this app answer it. */
class Admin implements ISettings {
	public function __construct(
		private BridgeClient $bridge,
		private IUserSession $session,
		private IURLGenerator $urls,
	) {
	}

	public function getForm(): TemplateResponse {
		$uid = $this->session->getUser()?->getUID() ?? '';
		$answer = $uid === '' ? null : $this->bridge->call('GET', '/settings/admin/form', [], $uid);
		$form = $answer !== null && $answer['status'] === 200 && is_string($answer['body']['html'] ?? null) ? $answer['body']['html'] : null;
		return new TemplateResponse(Application::APP_ID, 'admin', [
			'form' => $form,
			'serviceUrl' => $this->bridge->serviceUrl(),
			'settingsUrl' => $this->urls->linkToRoute(Application::APP_ID . '.settings.show'),
			'confirmUrl' => $this->urls->linkToRoute('core.login.confirmPassword'),
		], '');
	}

	public function getSection(): string {
		return Application::APP_ID;
	}

	public function getPriority(): int {
		return 50;
	}
}
