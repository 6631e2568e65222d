<?php

declare(strict_types=1);

namespace OCA\DocsUnifiedSearch\Bridge;

/**
 * What the app takes from the service's answers: no more than from any other server it does
 * not control (issue 23). Whatever answers on the service's address may be something else:
 * every field is checked for its type (a wrong one throws, and the caller answers with nothing
 * and one log line, never a 500), texts are capped and lose control characters, and URLs are
 * passed on only when they are Nextcloud's own.
 */
final class Answer {
	/** Titles (a document's, a widget item's, a provider's name), in characters. */
	public const TITLE_LENGTH = 500;
	/** Sublines, excerpts, attributes and other texts, in characters. */
	public const TEXT_LENGTH = 1000;
	/**
	 * C0 and C1 controls (DEL too) and the bidirectional marks, embeddings, overrides and
	 * isolates: an ESC or a U+202E reaching a terminal or a page rewrites what is shown.
	 */
	private const CONTROLS = '/[\x{0000}-\x{001F}\x{007F}-\x{009F}\x{061C}\x{200E}\x{200F}\x{202A}-\x{202E}\x{2066}-\x{2069}]/u';

	/**
	 * @return array<mixed> a JSON object or array
	 * @throws \UnexpectedValueException
	 */
	public static function map(mixed $value, string $what): array {
		// A JSON list decodes to a PHP list too: one with members is no object.
		if (!is_array($value) || ($value !== [] && array_is_list($value))) {
			throw new \UnexpectedValueException($what . ' is not an object');
		}
		return $value;
	}

	/**
	 * @return list<mixed>
	 * @throws \UnexpectedValueException
	 */
	public static function list(mixed $value, string $what): array {
		if (!is_array($value) || !array_is_list($value)) {
			throw new \UnexpectedValueException($what . ' is not a list');
		}
		return $value;
	}

	/**
	 * A string (or a number, written as one) without control characters, at most $max characters.
	 *
	 * @throws \UnexpectedValueException
	 */
	public static function text(mixed $value, string $what, int $max = self::TEXT_LENGTH): string {
		if (is_int($value) || is_float($value)) {
			$value = (string)$value;
		}
		if (!is_string($value)) {
			throw new \UnexpectedValueException($what . ' is not a string');
		}
		// Tabs and line ends become spaces (words stay apart); the rest goes.
		$value = (string)preg_replace(self::CONTROLS, '', str_replace(["\r\n", "\r", "\n", "\t"], ' ', $value));
		return mb_substr($value, 0, $max, 'UTF-8');
	}

	/** @throws \UnexpectedValueException */
	public static function bool(mixed $value, string $what): bool {
		if (!is_bool($value)) {
			throw new \UnexpectedValueException($what . ' is not a boolean');
		}
		return $value;
	}

	/**
	 * The URL when it is Nextcloud's own: relative to it (a path, not `//host`), or absolute,
	 * http(s), on the origin of `$own` (scheme, host and port); anything else (`javascript:`,
	 * another host, a control character or backslash a browser may read otherwise) gives ''.
	 *
	 * @throws \UnexpectedValueException when it is not a string at all
	 */
	public static function url(mixed $value, string $what, string $own): string {
		if (!is_string($value)) {
			throw new \UnexpectedValueException($what . ' is not a string');
		}
		if ($value === '' || preg_match('/[\x00-\x20\x7F\\\\]/', $value) === 1 || preg_match(self::CONTROLS, $value) === 1 || str_starts_with($value, '//')) {
			return '';
		}
		$parts = parse_url($value);
		if ($parts === false) {
			return '';
		}
		if (!isset($parts['scheme']) && !isset($parts['host'])) {
			return $value;
		}
		$origin = self::origin($own);
		return $origin !== null && self::origin($value) === $origin ? $value : '';
	}

	/** `scheme://host:port` of an http(s) URL, the port always written; null for anything else. */
	private static function origin(string $url): ?string {
		$parts = parse_url($url);
		$scheme = strtolower((string)($parts['scheme'] ?? ''));
		if (($scheme !== 'http' && $scheme !== 'https') || !isset($parts['host']) || isset($parts['user']) || isset($parts['pass'])) {
			return null;
		}
		$port = $parts['port'] ?? ($scheme === 'https' ? 443 : 80);
		return $scheme . '://' . strtolower($parts['host']) . ':' . $port;
	}
}
