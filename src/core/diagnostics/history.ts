import type { SettingsStore } from '../settings/types.js';

/** The spec's cap on the problem history. */
export const HISTORY_LIMIT = 20;

/**
 * One problem: when, which error code, a scrubbed message, the HTTP status if any; `source`
 * `test` for a failed connection test of `check` or `test` (absent: a search).
 */
export interface HistoryEntry {
  readonly at: string;
  readonly code: string;
  readonly message: string;
  readonly status?: number;
  readonly source?: 'test';
}

export interface Problem {
  readonly code: string;
  readonly message: string;
  readonly status?: number | undefined;
  readonly source?: 'test' | undefined;
}

/** Shorter secrets (a one-letter term) are not searched for: replacing them would garble every message. */
export const MIN_SCRUBBED_LENGTH = 3;

/**
 * Removes what the history must never hold. Callers pass the term and the token as
 * `secrets`; URL query parts are cut wherever they appear, so a query that slipped into a
 * message cannot survive.
 */
export function scrub(message: string, secrets: readonly string[] = []): string {
  let text = message;
  const words = secrets.filter((secret) => secret.length >= MIN_SCRUBBED_LENGTH);
  for (const secret of [...new Set(words)].sort((a, b) => b.length - a.length)) {
    text = text.split(secret).join('…');
  }
  text = text.replace(/\?[^\s"'<>)]*/g, '');
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

function isEntry(value: unknown): value is HistoryEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return typeof entry.at === 'string' && typeof entry.code === 'string' && typeof entry.message === 'string';
}

/** The stored history, newest first; a damaged value reads as empty rather than failing a search. */
export function readHistory(settings: SettingsStore): HistoryEntry[] {
  const stored = settings.get('diagnostics');
  if (stored === undefined || stored === '') return [];
  try {
    const parsed: unknown = JSON.parse(stored);
    return Array.isArray(parsed) ? parsed.filter(isEntry) : [];
  } catch {
    return [];
  }
}

/** Adds a problem (newest first, at most 20) and raises `diagnostics_pending`. */
export function recordProblem(settings: SettingsStore, problem: Problem, secrets: readonly string[] = [], now: Date = new Date()): HistoryEntry {
  const entry: HistoryEntry = {
    at: now.toISOString(),
    code: problem.code,
    message: scrub(problem.message, secrets),
    ...(problem.status === undefined ? {} : { status: problem.status }),
    ...(problem.source === undefined ? {} : { source: problem.source }),
  };
  settings.transaction(() => {
    const next = [entry, ...readHistory(settings)].slice(0, HISTORY_LIMIT);
    settings.update({ diagnostics: JSON.stringify(next), diagnostics_pending: true });
  });
  return entry;
}

/** A search that worked lowers `diagnostics_pending`; written only when it was raised. */
export function recordRecovery(settings: SettingsStore): void {
  if (settings.get('diagnostics_pending') !== true) return;
  settings.transaction(() => {
    if (settings.get('diagnostics_pending') === true) settings.update({ diagnostics_pending: false });
  });
}

/**
 * A connection test that worked lowers `diagnostics_pending` only when the newest problem is a
 * failed connection test: a failed search still waits for a search that works (the spec).
 */
export function recordTestWorked(settings: SettingsStore): void {
  if (settings.get('diagnostics_pending') !== true) return;
  settings.transaction(() => {
    if (settings.get('diagnostics_pending') === true && readHistory(settings)[0]?.source === 'test') settings.update({ diagnostics_pending: false });
  });
}

/** The spec's Clear history: deletes only the history. */
export function clearHistory(settings: SettingsStore): void {
  settings.delete(['diagnostics']);
}
