<?php

declare(strict_types=1);

namespace OCA\DocsUnifiedSearch\Controller;

use OCA\DocsUnifiedSearch\AppInfo\Application;
use OCA\DocsUnifiedSearch\Bridge\BridgeClient;
use OCP\AppFramework\Controller;
use OCP\AppFramework\Http\Attribute\FrontpageRoute;
use OCP\AppFramework\Http\Attribute\PasswordConfirmationRequired;
use OCP\AppFramework\Http\JSONResponse;
use OCP\AppFramework\Utility\ITimeFactory;
use OCP\IL10N;
use OCP\IRequest;
use OCP\ISession;
use OCP\IUserSession;

/**
 * The settings routes on Nextcloud. Nextcloud checks the administrator (no NoAdminRequired),
 * its request token (no NoCSRFRequired) and, for Save and Disconnect, the password; the service
 * checks again and decides everything else. Answers pass through unchanged.
 *
 * The attribute alone is not what the service is told: Nextcloud's middleware lets a request
 * through on an app password or device token (Basic or Bearer), and a stolen token must not
 * change or delete the settings. The signed "confirmed" flag is sent only when the session holds
 * a recent confirmation made by typing the password (`confirmedByPassword`), serve's own rule.
 */
class SettingsController extends Controller {
	private const PATH = '/apps/docs_unified_search/settings';
	/** Nextcloud's own window (PasswordConfirmationMiddleware): 30 minutes and 15 s of delay. */
	private const CONFIRMATION_SECONDS = 30 * 60 + 15;

	public function __construct(
		IRequest $request,
		private BridgeClient $bridge,
		private IUserSession $session,
		private ISession $phpSession,
		private ITimeFactory $time,
		private IL10N $l10n,
	) {
		parent::__construct(Application::APP_ID, $request);
	}

	#[FrontpageRoute(verb: 'GET', url: '/settings')]
	public function show(): JSONResponse {
		return $this->forward('GET', '');
	}

	#[PasswordConfirmationRequired]
	#[FrontpageRoute(verb: 'POST', url: '/settings')]
	public function save(): JSONResponse {
		return $this->forward('POST', '', $this->fields(['url', 'token', 'archiveOwner', 'allowLocal', 'alwaysSearch']), $this->confirmedByPassword());
	}

	#[PasswordConfirmationRequired]
	#[FrontpageRoute(verb: 'DELETE', url: '/settings')]
	public function disconnect(): JSONResponse {
		return $this->forward('DELETE', '', null, $this->confirmedByPassword());
	}

	#[FrontpageRoute(verb: 'GET', url: '/settings/diagnostics')]
	public function diagnostics(): JSONResponse {
		return $this->forward('GET', '/diagnostics');
	}

	#[FrontpageRoute(verb: 'DELETE', url: '/settings/diagnostics')]
	public function clearDiagnostics(): JSONResponse {
		return $this->forward('DELETE', '/diagnostics');
	}

	#[FrontpageRoute(verb: 'POST', url: '/settings/try')]
	public function try(): JSONResponse {
		return $this->forward('POST', '/try', $this->fields(['term', 'user']));
	}

	#[FrontpageRoute(verb: 'POST', url: '/settings/who')]
	public function who(): JSONResponse {
		return $this->forward('POST', '/who', $this->fields(['document', 'includeBlocked']));
	}

	/**
	 * Whether this request's session was confirmed by a typed password lately. Nextcloud
	 * (34.0.1, lib/private/User/Session.php) sets `last-password-confirm` at a login with the
	 * login password (form or Basic) and at `/login/confirm`; a login with an app password or
	 * device token sets `app_password` instead (`one_time_token` for a one-time token, `app_api`
	 * for AppAPI's calls), and such a session is never taken as confirmed, whatever else it holds.
	 */
	private function confirmedByPassword(): bool {
		foreach (['app_password', 'one_time_token'] as $tokenLogin) {
			if ($this->phpSession->get($tokenLogin) !== null) {
				return false;
			}
		}
		if ($this->phpSession->get('app_api') === true) {
			return false;
		}
		// Read as Nextcloud's middleware reads it (an int, absent as 0).
		$last = (int)$this->phpSession->get('last-password-confirm');
		return $last >= $this->time->getTime() - self::CONFIRMATION_SECONDS;
	}

	/**
	 * The named form fields as sent (urlencoded, JSON or multipart; a multipart file's first
	 * 16 KiB as text, which keeps a token file out of the admin's shell history).
	 *
	 * @param list<string> $names
	 * @return array<string, mixed>
	 */
	private function fields(array $names): array {
		$fields = [];
		foreach ($names as $name) {
			$file = $this->request->getUploadedFile($name);
			if (is_array($file) && is_string($file['tmp_name'] ?? null) && is_uploaded_file($file['tmp_name'])) {
				$fields[$name] = (string)file_get_contents($file['tmp_name'], false, null, 0, 16384);
			} elseif ($this->request->getParam($name) !== null) {
				$fields[$name] = $this->request->getParam($name);
			}
		}
		return $fields;
	}

	private function forward(string $method, string $suffix, ?array $body = null, bool $confirmed = false): JSONResponse {
		$uid = $this->session->getUser()?->getUID() ?? '';
		$answer = $this->bridge->call($method, self::PATH . $suffix, [], $uid, $confirmed, $body, 20);
		if ($answer === null) {
			return new JSONResponse(['message' => $this->l10n->t('The docs-unified-search service did not answer.'), 'code' => 'service_unreachable'], 502);
		}
		return new JSONResponse($answer['body'], $answer['status']);
	}
}
