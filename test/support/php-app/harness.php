<?php

declare(strict_types=1);

/*
 * Runs the bridge app's classes outside Nextcloud: just enough of OCP for them to load (the
 * shapes the app uses, nothing of Nextcloud's behaviour), the app's lib/ autoloaded, then the
 * PHP read from stdin, which prints what the test asserts. What Nextcloud itself does with the
 * app is the real-Nextcloud e2e's (test/nextcloud-bridge/).
 */

namespace Psr\Log {
	interface LoggerInterface {
	}
}

namespace OCP {
	interface IRequest {
	}
	interface ISession {
	}
	interface IUserSession {
	}
	interface IUser {
	}
	interface IAppConfig {
	}
	interface IURLGenerator {
	}
	interface IDateTimeZone {
	}
	interface IL10N {
	}
}

namespace OCP\Http\Client {
	interface IClientService {
	}
}

namespace OCP\AppFramework\Utility {
	interface ITimeFactory {
	}
}

namespace OCP\AppFramework {
	abstract class Controller {
		public function __construct(protected string $appName, protected \OCP\IRequest $request) {
		}
	}
	abstract class App {
		public function __construct(string $appName) {
		}
	}
}

namespace OCP\AppFramework\Bootstrap {
	interface IBootstrap {
	}
	interface IBootContext {
	}
	interface IRegistrationContext {
	}
}

namespace OCP\AppFramework\Http {
	class JSONResponse {
		public function __construct(public mixed $data = [], public int $status = 200) {
		}
	}
}

namespace OCP\Search {
	interface IFilteringProvider {
	}
	interface IExternalProvider {
	}
	interface ISearchQuery {
	}
	class SearchResultEntry {
		public array $attributes = [];
		public function __construct(public string $thumbnailUrl, public string $title, public string $subline, public string $resourceUrl, public string $icon = '', public bool $rounded = false) {
		}
		public function addAttribute(string $key, string $value): void {
			$this->attributes[$key] = $value;
		}
	}
	class SearchResult {
		private function __construct(public string $name, public array $entries, public ?string $cursor) {
		}
		public static function complete(string $name, array $entries): self {
			return new self($name, $entries, null);
		}
		public static function paginated(string $name, array $entries, string $cursor): self {
			return new self($name, $entries, $cursor);
		}
	}
}

namespace OCP\Dashboard {
	interface IReloadableWidget {
	}
	interface IButtonWidget {
	}
	interface IIconWidget {
	}
	interface IConditionalWidget {
	}
}

namespace OCP\Dashboard\Model {
	class WidgetButton {
		public function __construct(public string $type, public string $link, public string $text) {
		}
	}
	class WidgetItem {
		public function __construct(public string $title = '', public string $subtitle = '', public string $link = '', public string $iconUrl = '', public string $sinceId = '', public string $overlayIconUrl = '') {
		}
	}
	class WidgetItems {
		public function __construct(public array $items = [], public string $emptyContentMessage = '', public string $halfEmptyContentMessage = '') {
		}
	}
}

namespace OCP\Collaboration\Reference {
	interface IReference {
	}
	interface ISearchableReferenceProvider {
	}
	abstract class ADiscoverableReferenceProvider {
	}
	class Reference implements IReference {
		public array $set = [];
		public function __construct(public string $reference) {
		}
		public function __call(string $name, array $arguments): void {
			$this->set[$name] = $arguments;
		}
	}
}

namespace {
	spl_autoload_register(static function (string $class): void {
		$prefix = 'OCA\\DocsUnifiedSearch\\';
		if (str_starts_with($class, $prefix)) {
			require __DIR__ . '/../../../nextcloud-app/docs_unified_search/lib/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
		}
	});
	/**
	 * The service's answer every call gets; what was sent, and what was logged, for the test to
	 * read. The fake service holds the secret: it answers each challenge request (kept apart, in
	 * $challenges) as `serve` does, so the app goes on to its call.
	 */
	final class Fake {
		public static int $status = 200;
		public static string $body = '{}';
		public static array $sent = [];
		public static array $challenges = [];
		/** What `Fake::bridge()` is configured with; `Fake::httpBridge()` calls that URL for real. */
		public static string $serviceUrl = 'http://127.0.0.1:9';
		public static string $secret = 'harness-secret';
		/** The address the fake service's challenges name; null: its own service_url, as serve's do. */
		public static ?string $servedAddress = null;
		public static array $logs = [];
		public static array $session = [];
		public static int $now = 1_800_000_000;

		public static function answer(mixed $body, int $status = 200): void {
			self::$status = $status;
			self::$body = is_string($body) ? $body : json_encode($body, JSON_THROW_ON_ERROR | JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES);
		}

		public static function bridge(): \OCA\DocsUnifiedSearch\Bridge\BridgeClient {
			$clients = new class implements \OCP\Http\Client\IClientService {
				public function newClient(): object {
					return new class {
						public function request(string $method, string $url, array $options): object {
							if (preg_match('#/bridge/challenge\?c=([0-9a-f]+)$#', $url, $match) === 1) {
								Fake::$challenges[] = ['method' => $method, 'url' => $url, 'headers' => $options['headers']];
								$random = bin2hex(random_bytes(16));
								$expires = (string)(time() + 30);
								$service = Fake::$servedAddress ?? rtrim(Fake::$serviceUrl, '/');
								$challenge = $expires . '.' . $random . '.' . hash_hmac('sha256', "dus-bridge-issued\n" . $service . "\n" . $expires . "\n" . $random, Fake::$secret);
								$proof = hash_hmac('sha256', "dus-bridge-challenge\n" . $match[1] . "\n" . $challenge . "\n" . $service, Fake::$secret);
								return Fake::response(200, json_encode(['challenge' => $challenge, 'proof' => $proof, 'service' => $service], JSON_UNESCAPED_SLASHES));
							}
							Fake::$sent[] = ['method' => $method, 'url' => $url, 'headers' => $options['headers']];
							return Fake::response(Fake::$status, Fake::$body);
						}
					};
				}
			};
			return new \OCA\DocsUnifiedSearch\Bridge\BridgeClient($clients, self::config(), self::logger());
		}

		/** The app's client over real HTTP (PHP's curl) to Fake::$serviceUrl, as Nextcloud's client calls it. */
		public static function httpBridge(): \OCA\DocsUnifiedSearch\Bridge\BridgeClient {
			$clients = new class implements \OCP\Http\Client\IClientService {
				public function newClient(): object {
					return new class {
						public function request(string $method, string $url, array $options): object {
							$headers = [];
							foreach ($options['headers'] as $name => $value) {
								// curl drops `Name:` with no value; `Name;` sends it empty, as Guzzle does.
								$headers[] = $value === '' ? $name . ';' : $name . ': ' . $value;
							}
							$handle = curl_init($url);
							curl_setopt_array($handle, [
								CURLOPT_CUSTOMREQUEST => $method,
								CURLOPT_HTTPHEADER => $headers,
								CURLOPT_RETURNTRANSFER => true,
								CURLOPT_TIMEOUT => $options['timeout'],
								CURLOPT_CONNECTTIMEOUT => $options['connect_timeout'],
								CURLOPT_FOLLOWLOCATION => false,
							] + ($options['curl'] ?? []));
							if ($options['body'] !== '') {
								curl_setopt($handle, CURLOPT_POSTFIELDS, $options['body']);
							}
							$body = curl_exec($handle);
							if (!is_string($body)) {
								throw new \RuntimeException(curl_error($handle));
							}
							return Fake::response((int)curl_getinfo($handle, CURLINFO_RESPONSE_CODE), $body);
						}
					};
				}
			};
			return new \OCA\DocsUnifiedSearch\Bridge\BridgeClient($clients, self::config(), self::logger());
		}

		public static function response(int $status, string $body): object {
			return new class($status, $body) {
				public function __construct(private int $status, private string $body) {
				}
				public function getStatusCode(): int {
					return $this->status;
				}
				public function getBody(): mixed {
					$stream = fopen('php://memory', 'r+');
					fwrite($stream, $this->body);
					rewind($stream);
					return $stream;
				}
			};
		}

		private static function config(): \OCP\IAppConfig {
			return new class implements \OCP\IAppConfig {
				public function getValueString(string $app, string $key, string $default = '', bool $lazy = false): string {
					return ['service_url' => Fake::$serviceUrl, 'bridge_secret' => Fake::$secret][$key] ?? $default;
				}
			};
		}

		private static function logger(): \Psr\Log\LoggerInterface {
			return new class implements \Psr\Log\LoggerInterface {
				public function __call(string $level, array $arguments): void {
					Fake::$logs[] = $level . ': ' . $arguments[0];
				}
			};
		}

		public static function user(string $uid = 'alice'): \OCP\IUser {
			return new class($uid) implements \OCP\IUser {
				public function __construct(private string $uid) {
				}
				public function getUID(): string {
					return $this->uid;
				}
			};
		}

		public static function userSession(): \OCP\IUserSession {
			return new class implements \OCP\IUserSession {
				public function getUser(): \OCP\IUser {
					return Fake::user();
				}
			};
		}

		/** PHP's session as Nextcloud's ISession shows it: Fake::$session. */
		public static function session(): \OCP\ISession {
			return new class implements \OCP\ISession {
				public function get(string $key): mixed {
					return Fake::$session[$key] ?? null;
				}
			};
		}

		public static function time(): \OCP\AppFramework\Utility\ITimeFactory {
			return new class implements \OCP\AppFramework\Utility\ITimeFactory {
				public function getTime(): int {
					return Fake::$now;
				}
			};
		}

		public static function request(array $params = []): \OCP\IRequest {
			return new class($params) implements \OCP\IRequest {
				public function __construct(private array $params) {
				}
				public function getParam(string $name): mixed {
					return $this->params[$name] ?? null;
				}
				public function getUploadedFile(string $name): mixed {
					return null;
				}
			};
		}

		/**
		 * Nextcloud's IL10N for the app, in `$language`: the app's own l10n/<language>.json, as
		 * Nextcloud's factory reads it; English is the text itself. Parameters as Nextcloud's t() (%s).
		 */
		public static function l10n(string $language = 'en'): \OCP\IL10N {
			$file = __DIR__ . '/../../../nextcloud-app/docs_unified_search/l10n/' . $language . '.json';
			$translations = $language === 'en' ? [] : json_decode((string)file_get_contents($file), true)['translations'];
			return new class($translations) implements \OCP\IL10N {
				public function __construct(private array $translations) {
				}
				public function t(string $text, array $parameters = []): string {
					return vsprintf($this->translations[$text] ?? $text, $parameters);
				}
			};
		}

		public static function urls(string $origin = 'https://cloud.example.com'): \OCP\IURLGenerator {
			return new class($origin) implements \OCP\IURLGenerator {
				public function __construct(private string $origin) {
				}
				public function getAbsoluteURL(string $url): string {
					return $this->origin . $url;
				}
				public function imagePath(string $app, string $image): string {
					return '/apps/' . $app . '/img/' . $image;
				}
			};
		}
	}

	eval((string)stream_get_contents(STDIN));
}
