/**
 * The marker rule (marker.ts): markersIn scans names by hand (no regex match, array or
 * substring per marker, as the marker index's build reads a million names); it must find
 * exactly what the rule as written finds: /\[P(\d+)\]/g, digits without a leading zero that
 * make a safe integer. Checked against that regex on named cases and on generated names.
 */
import { describe, expect, test } from '@jest/globals';
import { forEachMarker, markersIn } from '../src/core/host/rules/marker.js';

/** The rule as docs/host-adapter.md states it. */
function byRegex(name: string): number[] {
  const ids: number[] = [];
  for (const match of name.matchAll(/\[P(\d+)\]/g)) {
    const digits = match[1] ?? '';
    const id = Number(digits);
    if (Number.isSafeInteger(id) && String(id) === digits) ids.push(id);
  }
  return ids;
}

describe('marker rule', () => {
  test.each([
    ['invoice [P12].pdf', [12]],
    ['[P1][P2] both', [1, 2]],
    ['[P[P3]', [3]],
    ['[P12[P13]', [13]],
    ['[P0]', [0]],
    ['[P012] leading zero', []],
    ['[P00]', []],
    ['[p12] lower case', []],
    ['[P] no digits', []],
    ['[P12 unclosed', []],
    ['[P9007199254740991]', [Number.MAX_SAFE_INTEGER]],
    ['[P9007199254740992] past 2^53', []],
    ['[P123456789012345678901234567890]', []],
    ['[P١٢] other digits', []],
    ['a [P5] b [P5]', [5, 5]],
  ])('%s', (name, ids) => {
    expect(markersIn(name)).toEqual(ids);
    expect(byRegex(name)).toEqual(ids);
  });

  test('the same ids as the regex on 100 000 generated names', () => {
    const parts = ['[', 'P', 'p', ']', '0', '1', '7', '9', 'x', ' ', '[P', '[P0', '[P1', '9007199254740991', '9007199254740992', '٣'];
    let x = 11;
    const next = (): number => {
      x = (x * 1103515245 + 12345) % 2147483648;
      return x / 2147483648;
    };
    const differ: string[] = [];
    for (let i = 0; i < 100_000; i += 1) {
      let name = '';
      for (let k = Math.floor(next() * 12); k > 0; k -= 1) name += parts[Math.floor(next() * parts.length)] ?? '';
      const ids: number[] = [];
      forEachMarker(name, (id) => ids.push(id));
      if (JSON.stringify(ids) !== JSON.stringify(byRegex(name))) differ.push(name);
    }
    expect(differ).toEqual([]);
  });

  test('inside a longer text (a COPY line), the markers of the name between from and to, and no other', () => {
    const text = '7\t2\t[P1] a [P2]\n8\t2\t[P3]\n';
    const between = (from: number, to: number): number[] => {
      const ids: number[] = [];
      forEachMarker(text, (id) => ids.push(id), from, to);
      return ids;
    };
    const first = text.indexOf('\n');
    expect(between(4, first)).toEqual([1, 2]);
    expect(between(first + 5, text.length - 1)).toEqual([3]);
    expect(between(4, first)).toEqual(markersIn(text.slice(4, first)));
    // A bound cutting a marker leaves it out, even where its `]` follows just past the bound.
    expect(between(4, first - 1)).toEqual([1]);
    expect(between(4, 7)).toEqual([]);
    expect(between(4, 6)).toEqual([]);
  });
});
