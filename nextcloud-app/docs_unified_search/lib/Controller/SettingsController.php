<?php

declare(strict_types=1);

namespace OCA\DocsUnifiedSearch\Controller;

use OCA\DocsUnifiedSearch\AppInfo\Application;
use OCA\DocsUnifiedSearch\Bridge\BridgeClient;
use OCP\AppFramework\Controller;
use OCP\AppFramework\Http\Attribute\FrontpageRoute;
use OCP\AppFramework\Http\Attribute\PasswordConfirmationRequired;
use OCP\AppFramework\Http\JSONResponse;
use OCP\IRequest;
use OCP\IUserSession;

/**
 * The settings routes on Nextcloud. Nextcloud checks the administrator (no NoAdminRequired),
 * its request token (no NoCSRFRequired) and, for Save and Disconnect, the password; the service
 * checks again and decides everything else. Answers pass through unchanged.
 */
class SettingsController extends Controller {
	private const PATH = '/apps/docs_unified_search/settings';

	public function __construct(
		IRequest $request,
		private BridgeClient $bridge,
		private IUserSession $session,
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
		return $this->forward('POST', '', $this->fields(['url', 'token', 'archiveOwner', 'allowLocal', 'alwaysSearch']), true);
	}

	#[PasswordConfirmationRequired]
	#[FrontpageRoute(verb: 'DELETE', url: '/settings')]
	public function disconnect(): JSONResponse {
		return $this->forward('DELETE', '', null, true);
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
			return new JSONResponse(['message' => 'The docs-unified-search service did not answer.', 'code' => 'service_unreachable'], 502);
		}
		return new JSONResponse($answer['body'], $answer['status']);
	}
}
