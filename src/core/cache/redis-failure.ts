import { DusError, messageOf } from '../errors.js';

/**
 * Why a Redis cache cannot be used, as one line with the code `cache_unreachable`: where it
 * is (host, port, database; never the user name or password of the URL) and what to correct.
 * ioredis' own errors carry stacks and, for some, the URL; none of that is passed on.
 */

const UNREACHABLE_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

function codeOf(error: unknown): string | null {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : null;
}

/** `host:port/db` of a redis:// URL, without its credentials. */
export function redisPlace(url: string): { readonly where: string; readonly db: string } {
  try {
    const parsed = new URL(url);
    const db = parsed.pathname.replace(/^\/+/, '') || '0';
    return { where: `${parsed.hostname}:${parsed.port || '6379'}/${db}`, db };
  } catch {
    return { where: 'the --cache URL', db: '0' };
  }
}

export function cacheUnusable(url: string, error: unknown, secrets: readonly string[]): DusError {
  const { where, db } = redisPlace(url);
  const text = messageOf(error);
  const code = codeOf(error);
  let reason: string;
  if (/WRONGPASS|NOAUTH|invalid password|invalid username-password/i.test(text)) {
    reason = 'refused the login: wrong user name or password in the URL';
  } else if (/DB index is out of range/i.test(text)) {
    reason = `has no database ${db}: use a database number below its "databases" setting (16 by default)`;
  } else if (code !== null && UNREACHABLE_CODES.has(code)) {
    reason = `does not answer (${code}): check that Redis runs there and that this host may reach it`;
  } else {
    let detail = (text.split('\n')[0] ?? '').slice(0, 200);
    for (const secret of secrets.filter((s) => s !== '')) detail = detail.split(secret).join('…');
    reason = `could not be used (${detail})`;
  }
  return new DusError('cache_unreachable', `The cache at ${where} ${reason}. --cache takes redis://[user:password@]host:port[/db].`);
}
