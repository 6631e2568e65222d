/** `?` placeholders become PostgreSQL's `$1…$n`, and a `?` inside a quoted literal or identifier stays as written. */
import { describe, expect, test } from '@jest/globals';
import { toNumberedPlaceholders } from '../src/core/host/db/placeholders.js';

describe('toNumberedPlaceholders', () => {
  test('numbers the placeholders in order', () => {
    expect(toNumberedPlaceholders('SELECT a FROM t WHERE b = ? AND c IN (?, ?)')).toBe('SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)');
  });

  test('leaves a ? inside quotes, doubled quotes included', () => {
    expect(toNumberedPlaceholders(`SELECT '?', "a?b", 'it''s ?' FROM t WHERE x = ? AND y LIKE '%?%' ESCAPE '\\'`)).toBe(
      `SELECT '?', "a?b", 'it''s ?' FROM t WHERE x = $1 AND y LIKE '%?%' ESCAPE '\\'`,
    );
  });

  test('a quote never closed keeps the rest of the text as it is', () => {
    expect(toNumberedPlaceholders(`SELECT ? FROM t WHERE x = 'a ? b`)).toBe(`SELECT $1 FROM t WHERE x = 'a ? b`);
  });

  test('past nine placeholders the numbers keep counting', () => {
    const sql = `SELECT 1 WHERE x IN (${Array.from({ length: 12 }, () => '?').join(', ')})`;
    expect(toNumberedPlaceholders(sql)).toBe(`SELECT 1 WHERE x IN (${Array.from({ length: 12 }, (_, i) => `$${i + 1}`).join(', ')})`);
  });
});
