import { describe, expect, test } from '@jest/globals';
import { fileLink, formatDay, localeOf, previewUrl, typeIconUrl } from '../src/core/search/entry-format.js';
import { excerptOf } from '../src/core/search/excerpt.js';
import { clampLimit, dayOf, parseCursor } from '../src/core/search/inputs.js';

describe('excerpt', () => {
  test('Whoosh markup (2.x): spans go, escaped text is decoded once', () => {
    const whoosh =
      'Terms &amp; conditions &lt;see annex&gt;: the <span class="match term0">invoice</span> is sent ... second <span class="match term1">bill</span>';
    expect(excerptOf(whoosh)).toBe('Terms & conditions <see annex>: the invoice is sent ... second bill');
  });

  test('Tantivy markup (3.x): <b> goes, quotes and apostrophes are decoded', () => {
    expect(excerptOf('Write to &quot;Insurance &lt;Mutual&gt;&quot; &#39;now&#39; about the <b>invoice</b>')).toBe(
      'Write to "Insurance <Mutual>" \'now\' about the invoice',
    );
  });

  test('decoded once: an escaped entity stays text; unknown entities and numeric ones', () => {
    expect(excerptOf('a &amp;lt; b &unknown; &#x41;&#66;')).toBe('a &lt; b &unknown; AB');
  });

  test('empty or absent highlights give an empty excerpt; whitespace is tidied', () => {
    expect(excerptOf(null)).toBe('');
    expect(excerptOf('')).toBe('');
    expect(excerptOf('  a\n\n  <b>b</b>  ')).toBe('a b');
  });
});

describe('entry URLs and dates', () => {
  test('links, previews and icons on the host URL, root-relative without one', () => {
    expect(fileLink('https://cloud.example.com/', 42)).toBe('https://cloud.example.com/f/42');
    expect(previewUrl(null, 42)).toBe('/core/preview?fileId=42&x=64&y=64&mimeFallback=1');
    expect(typeIconUrl('https://c.example', 'application/vnd.oasis.opendocument.text')).toBe(
      'https://c.example/core/mimeicon?mime=application%2Fvnd.oasis.opendocument.text',
    );
  });

  test('the day in the user language, never shifted by a time zone', () => {
    expect(formatDay('2024-03-01', 'de_DE')).toBe(new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium', timeZone: 'UTC' }).format(Date.UTC(2024, 2, 1)));
    expect(formatDay('2024-03-01', null)).toContain('2024');
    expect(formatDay('2024-03-01', 'de_DE')).not.toBe(formatDay('2024-03-01', 'en'));
    expect(formatDay(null, 'de')).toBeNull();
    expect(localeOf('not a language tag!')).toBe('en');
  });

  test('days written before are written the same again, per language; what is not a day stays as it came', () => {
    const days = ['2024-03-01', '2024-12-31', '1999-01-02'];
    const languages = ['de_DE', 'fr', null, 'en_GB'];
    const expected = (day: string, language: string | null): string =>
      new Intl.DateTimeFormat(localeOf(language), { dateStyle: 'medium', timeZone: 'UTC' }).format(Date.parse(`${day}T00:00:00Z`));
    for (let round = 0; round < 3; round += 1) {
      for (const language of languages) for (const day of days) expect(formatDay(day, language)).toBe(expected(day, language));
    }
    const odd = `not a day ${'x'.repeat(100)}`;
    expect(formatDay(odd, 'de')).toBe(odd);
    expect(formatDay('soon', 'de')).toBe('soon');
  });
});

describe('inputs', () => {
  test('cursor: absent is 0, a whole number is taken, anything else is a usage error', () => {
    expect(parseCursor(undefined)).toBe(0);
    expect(parseCursor('')).toBe(0);
    expect(parseCursor('75')).toBe(75);
    expect(parseCursor(3)).toBe(3);
    for (const bad of ['-1', '1.5', 'x', '1e3']) expect(() => parseCursor(bad)).toThrow(expect.objectContaining({ code: 'usage' }));
  });

  test('limit: default 5, clamped to 1…50', () => {
    expect(clampLimit(undefined)).toBe(5);
    expect(clampLimit(0)).toBe(1);
    expect(clampLimit(500)).toBe(50);
    expect(clampLimit(7.9)).toBe(7);
  });

  test('date filter: a day, an ISO moment on the calendar of its own offset, or a Unix time on the UTC calendar', () => {
    expect(dayOf('2024-05-01', 'since')).toBe('2024-05-01');
    expect(dayOf('2024-05-01T23:30:00-02:00', 'since')).toBe('2024-05-01');
    expect(dayOf('1714521600', 'until')).toBe('2024-05-01');
    // The search bar's day in Berlin (midnight to the last millisecond), as the bridge writes it…
    expect(dayOf('2026-01-05T00:00:00+01:00', 'since')).toBe('2026-01-05');
    expect(dayOf('2026-01-05T23:59:59.999+01:00', 'until')).toBe('2026-01-05');
    // …and the same moments in UTC, as the browser sends them: the UTC day is the day before.
    expect(dayOf('2026-01-04T23:00:00.000Z', 'since')).toBe('2026-01-04');
    // New York's last millisecond of the day is the next UTC day; offsets without a colon too.
    expect(dayOf('2026-07-05T23:59:59.999-04:00', 'until')).toBe('2026-07-05');
    expect(dayOf('2026-07-05T23:59:59-0400', 'until')).toBe('2026-07-05');
    expect(dayOf('2026-07-06T00:30:00+14:00', 'since')).toBe('2026-07-06');
    // No offset written: UTC, whatever the zone this process runs in.
    expect(dayOf('2026-07-05T23:30:00', 'since')).toBe('2026-07-05');
    expect(dayOf(undefined, 'since')).toBeUndefined();
    expect(() => dayOf('soon', 'until')).toThrow(expect.objectContaining({ code: 'usage' }));
  });

  test('a written day that is no calendar day is refused, not rolled over to another day', () => {
    for (const impossible of ['2026-13-45', '2026-02-30', '2025-02-29', '2026-02-30T00:00:00Z', '2026-00-10']) {
      expect(() => dayOf(impossible, 'since')).toThrow(expect.objectContaining({ code: 'usage' }));
    }
    expect(dayOf('2024-02-29', 'since')).toBe('2024-02-29');
  });
});
