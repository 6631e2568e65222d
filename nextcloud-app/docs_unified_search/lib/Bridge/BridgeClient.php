<?php

declare(strict_types=1);

namespace OCA\DocsUnifiedSearch\Bridge;

use OCA\DocsUnifiedSearch\AppInfo\Application;
use OCP\Http\Client\IClientService;
use OCP\IAppConfig;
use Psr\Log\LoggerInterface;

/**
 * The signed channel to the docs-unified-search service (docs/bridge.md in its repository):
 * every call names the acting Nextcloud user, the time, a nonce, a challenge the service issued
 * and whether Nextcloud confirmed the password, and carries an HMAC-SHA256 of those, the method,
 * the path with its query and the body's SHA-256, keyed with the shared secret. Nothing is
 * decided here.
 *
 * Before each call the app asks the service for a challenge with a fresh value of its own and
 * sends the call only when the answer proves the secret over that value: whatever else listens
 * on `service_url` (the service down, a local account on its port) gets no signed call to replay.
 */
class BridgeClient {
	/** A failing service is logged once per request, however many calls fail. */
	private static bool $failureLogged = false;
	/** So is an answer of the wrong shape. */
	private static bool $shapeLogged = false;
	/**
	 * The most of an answer read (2 MiB): the largest the service sends (a page of 30 results with
	 * capped texts) is far smaller, and whatever answers there instead must not fill PHP's memory.
	 */
	public const MAX_ANSWER_BYTES = 2 * 1024 * 1024;
	/** A challenge answer is a few hundred bytes; more is not the service. */
	private const MAX_CHALLENGE_BYTES = 4096;

	public function __construct(
		private IClientService $clients,
		private IAppConfig $config,
		private LoggerInterface $logger,
	) {
	}

	public function serviceUrl(): string {
		return rtrim($this->config->getValueString(Application::APP_ID, 'service_url', ''), '/');
	}

	/**
	 * @param array<string, scalar> $query sent in this order; keys such as `widgets[]` as they are
	 * @param array<string, mixed>|null $body sent as JSON
	 * @return array{status: int, body: array<mixed>}|null null when the service is not set up or did not answer
	 */
	public function call(string $method, string $path, array $query, string $userId, bool $confirmed = false, ?array $body = null, int $timeout = 10): ?array {
		$base = $this->serviceUrl();
		$socket = null;
		if (str_starts_with($base, 'unix://')) {
			// `unix:///run/docs-unified-search/serve.sock`: the socket only the web server's and the
			// service's accounts can reach; the URL then names no host of its own.
			$socket = substr($base, strlen('unix://'));
			$base = 'http://localhost';
		}
		$secret = $this->config->getValueString(Application::APP_ID, 'bridge_secret', '', true);
		if ($base === '' || $secret === '') {
			return $this->failed('the service_url or the bridge secret is not set');
		}
		$pairs = [];
		foreach ($query as $key => $value) {
			$pairs[] = rawurlencode((string)$key) . '=' . rawurlencode((string)$value);
		}
		$target = '/bridge' . $path . ($pairs === [] ? '' : '?' . implode('&', $pairs));
		$payload = $body === null ? '' : json_encode($body, JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES);
		$challenge = $this->challenge($base, $socket, $secret, $timeout, $this->serviceUrl());
		if ($challenge === null) {
			return null;
		}
		$time = (string)time();
		$nonce = bin2hex(random_bytes(16));
		$flag = $confirmed ? '1' : '0';
		$text = implode("\n", ['dus-bridge-v2', $method, $target, $userId, $time, $nonce, $challenge, $flag, hash('sha256', $payload)]);
		$headers = [
			'Accept' => 'application/json',
			'X-DUS-Bridge-User' => $userId,
			'X-DUS-Bridge-Time' => $time,
			'X-DUS-Bridge-Nonce' => $nonce,
			'X-DUS-Bridge-Confirmed' => $flag,
			'X-DUS-Bridge-Challenge' => $challenge,
			'X-DUS-Bridge-Signature' => 'v2=' . hash_hmac('sha256', $text, $secret),
		];
		if ($body !== null) {
			$headers['Content-Type'] = 'application/json';
		}
		$answer = $this->send($method, $base . $target, $socket, $headers, $payload, $timeout, self::MAX_ANSWER_BYTES, '2 MiB');
		if (is_string($answer)) {
			return $this->failed($answer);
		}
		$decoded = json_decode($answer['text'], true);
		if (!is_array($decoded)) {
			return $this->failed('the answer was not JSON (HTTP ' . $answer['status'] . ')');
		}
		return ['status' => $answer['status'], 'body' => $decoded];
	}

	/**
	 * A challenge of the service for one call, once the service proved the secret over a fresh
	 * value of ours and named our service_url as its address; null (logged) otherwise. The
	 * address is what binds the challenge to the process the app addressed: another process
	 * sharing the secret (reached through whatever took a stopped one's port) names its own.
	 */
	private function challenge(string $base, ?string $socket, string $secret, int $timeout, string $serviceUrl): ?string {
		$mine = bin2hex(random_bytes(16));
		$answer = $this->send('GET', $base . '/bridge/challenge?c=' . $mine, $socket, ['Accept' => 'application/json'], '', $timeout, self::MAX_CHALLENGE_BYTES, '4 KiB');
		if (is_string($answer)) {
			return $this->failed($answer);
		}
		$decoded = json_decode($answer['text'], true);
		$challenge = is_array($decoded) ? ($decoded['challenge'] ?? null) : null;
		$proof = is_array($decoded) ? ($decoded['proof'] ?? null) : null;
		$service = is_array($decoded) ? ($decoded['service'] ?? null) : null;
		$proven = $answer['status'] === 200 && is_string($challenge) && is_string($proof) && is_string($service)
			&& preg_match('/^\d{1,12}\.[0-9a-f]{32}\.[0-9a-f]{64}$/', $challenge) === 1
			&& hash_equals(hash_hmac('sha256', "dus-bridge-challenge\n" . $mine . "\n" . $challenge . "\n" . $service, $secret), $proof);
		if (!$proven) {
			// Not the service, or not one holding this instance's secret: nothing signed goes there.
			return $this->failed('the answer at service_url did not prove the bridge secret (HTTP ' . $answer['status'] . '), no signed call was sent');
		}
		if (!hash_equals($serviceUrl, $service)) {
			// A holder of the secret, but another process than the one at service_url: a listener on
			// this address passes our request on to it. Its address is proven by the MAC; printable only.
			$named = preg_match('/^[\x21-\x7e]{1,300}$/', $service) === 1 ? $service : '(not printable)';
			return $this->failed('the service that answered at service_url serves ' . $named . ', not ' . $serviceUrl
				. ', no signed call was sent (a second serve behind this address? if that is its address, start serve with --service-url ' . $serviceUrl . ')');
		}
		return $challenge;
	}

	/**
	 * One request; its status and at most $limit bytes of its body, or why there is none.
	 *
	 * @param array<string, string> $headers
	 * @return array{status: int, text: string}|string
	 */
	private function send(string $method, string $url, ?string $socket, array $headers, string $payload, int $timeout, int $limit, string $limitText): array|string {
		$options = [];
		if ($socket !== null) {
			// Guzzle hands `curl` options to the handle as they are; Nextcloud's client keeps them.
			$options['curl'] = [CURLOPT_UNIX_SOCKET_PATH => $socket];
		}
		try {
			// A client of its own per request: Nextcloud gives each client its own curl handler, so
			// a signed call never rides the connection its challenge came on.
			$response = $this->clients->newClient()->request($method, $url, $options + [
				'headers' => $headers,
				'body' => $payload,
				'timeout' => $timeout,
				'connect_timeout' => 3,
				'http_errors' => false,
				'allow_redirects' => false,
				// Read as a stream, so that no more than the limit is ever read.
				'stream' => true,
				// The service runs beside Nextcloud, usually on loopback: an address the admin named.
				'nextcloud' => ['allow_local_address' => true],
			]);
		} catch (\Throwable $e) {
			return get_class($e);
		}
		$raw = $response->getBody();
		$text = is_string($raw) ? $raw : (string)stream_get_contents($raw, $limit + 1);
		if (is_resource($raw)) {
			fclose($raw);
		}
		if (strlen($text) > $limit) {
			return 'the answer was over ' . $limitText . ', refused';
		}
		return ['status' => $response->getStatusCode(), 'text' => $text];
	}

	/** The `data` of an OCS answer with status 200, else null. */
	public function ocsData(?array $answer): ?array {
		if ($answer === null || $answer['status'] !== 200) {
			return null;
		}
		$data = $answer['body']['ocs']['data'] ?? null;
		return is_array($data) ? $data : null;
	}

	/**
	 * An answer the app cannot take (a field of the wrong type): logged once per request, naming
	 * the field, never its value; the caller answers with nothing.
	 */
	public function wrongShape(string $where, \UnexpectedValueException $problem): void {
		if (!self::$shapeLogged) {
			self::$shapeLogged = true;
			$this->logger->warning('The docs-unified-search service answered in a shape the app does not take (' . $where . '): ' . $problem->getMessage());
		}
	}

	private function failed(string $why): ?array {
		if (!self::$failureLogged) {
			self::$failureLogged = true;
			$this->logger->warning('The docs-unified-search service did not answer: ' . $why);
		}
		return null;
	}
}
