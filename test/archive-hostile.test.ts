import { describe, expect, it } from '@jest/globals';
import { createArchiveClient } from '../src/core/archive/archive-client.js';
import { FRAGMENT_LENGTH, REDACTED, tokenForms, tokenScrubber } from '../src/core/archive/token-scrub.js';
import { isApiVersion, isServerVersion, withCheckedVersions } from '../src/core/archive/versions.js';
import type { ArchiveClientOptions, ArchiveVersions } from '../src/core/archive/types.js';
import { DusError } from '../src/core/errors.js';
import { useArchiveEmulator } from './support/archive-client-helpers.js';
import { leakForms, leaksIn } from './support/archive-emulator/hostile.js';
import type { ArchiveEmulator } from './support/archive-emulator/types.js';
import { captureLogger } from './support/host-fixtures/capture-log.js';

/**
 * A hostile archive server (the emulator's `echoToken` knob) writes the token it was sent into
 * every string of every answer and into its version headers: whole, in other letter cases,
 * inside a longer word, each half, one character short, split across X-Version and
 * X-Api-Version. Nothing of it may leave the archive client.
 */

const TOKEN = 'Hostile-Tok3n-a1b2c3d4e5f6a7b8';
const FAST: ArchiveClientOptions['timeouts'] = { connectMs: 1000, answerMs: 3000, widgetAnswerMs: 3000, retryWindowMs: 3500 };

describe('the token step', () => {
  const scrub = tokenScrubber(TOKEN);

  it.each(leakForms(TOKEN))('replaces %s wherever it stands', (form) => {
    const alone = scrub(`Invoice ${form} 2024`);
    // Of base64 of `archive:<token>` the user's part stays, and the last character (2 of its bits).
    expect(alone).toMatch(/^Invoice (x|YXJjaGl2ZTp)?\[redacted\](y|.=)? 2024$/);
    const inWord = scrub(`Invoice${form}2024`);
    expect(inWord).toContain(REDACTED);
    expect(leaksIn(`${alone} ${inWord}`, [TOKEN])).toEqual([]);
    // A piece from its middle (the start of an encoded `user:token` is the user's, and stays).
    const middle = form.slice(Math.max(0, (form.length >> 1) - FRAGMENT_LENGTH / 2)).slice(0, FRAGMENT_LENGTH);
    expect(inWord.toLowerCase()).not.toContain(middle.toLowerCase());
  });

  it('replaces two separate pieces, and leaves text that shares only short runs with the token', () => {
    expect(scrub(`a ${TOKEN.slice(0, 9)} b ${TOKEN.slice(-9).toUpperCase()} c`)).toBe(`a ${REDACTED} b ${REDACTED} c`);
    const ordinary = 'Hostile takeover of Tok3n Ltd, invoice a1b2c3 from 2024-01-05';
    expect(scrub(ordinary)).toBe(ordinary);
  });

  it('keeps the length of the text it compares, also around letters whose lower case is longer', () => {
    expect(scrub(`İstanbul ${TOKEN.toUpperCase()} K`)).toBe(`İstanbul ${REDACTED} K`);
  });

  it('a letter that folds to one of the token (the Kelvin sign to k) still counts as that letter', () => {
    expect(scrub(`Invoice HOSTILE-TO\u212A3N 2024`)).toBe(`Invoice ${REDACTED} 2024`);
  });

  it('replaces exactly what a window-by-window comparison finds, on 3000 random texts of token letters and others', () => {
    // The reference: fold each unit, mark every window equal to a piece of the token, one REDACTED per marked run.
    const fold = (text: string): string =>
      text
        .split('')
        .map((unit) => (unit.toLowerCase().length === 1 ? unit.toLowerCase() : unit))
        .join('');
    const folded = tokenForms(TOKEN).map(fold);
    const reference = (text: string): string => {
      const haystack = fold(text);
      const marked = new Array<boolean>(text.length).fill(false);
      for (let at = 0; at + FRAGMENT_LENGTH <= text.length; at += 1) {
        const window = haystack.slice(at, at + FRAGMENT_LENGTH);
        if (folded.some((form) => form.includes(window))) marked.fill(true, at, at + FRAGMENT_LENGTH);
      }
      let out = '';
      for (let at = 0; at < text.length; at += 1) {
        if (!marked[at]) out += text[at];
        else if (at === 0 || !marked[at - 1]) out += REDACTED;
      }
      return out;
    };
    let state = 7;
    const random = (n: number): number => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state % n;
    };
    const alphabet = `${TOKEN}${TOKEN.toUpperCase()}xyz 09-\u212AİÄ`;
    let replaced = 0;
    for (let round = 0; round < 3000; round += 1) {
      let text = '';
      const length = random(40);
      while (text.length < length) {
        text +=
          random(4) === 0 ? TOKEN.slice(random(TOKEN.length), random(TOKEN.length) + FRAGMENT_LENGTH + random(4)) : (alphabet[random(alphabet.length)] ?? '');
      }
      const expected = reference(text);
      if (expected !== text) replaced += 1;
      expect(scrub(text)).toBe(expected);
    }
    // Both kinds occur: texts with a piece and texts without.
    expect(replaced).toBeGreaterThan(300);
    expect(replaced).toBeLessThan(2700);
  });

  it('takes only versions that look like versions', () => {
    expect(['2.20.15', '3.0.5', '3.0.0-beta.rc1', '10', '2.16'].map(isServerVersion)).toEqual([true, true, true, true, true]);
    expect(['9', '10', '11'].map(isApiVersion)).toEqual([true, true, true]);
    const refused = [TOKEN, TOKEN.slice(0, 15), `3.0.5-${TOKEN}`, '2.20 (patched by ops)', '9'.repeat(40), '1.2.3.4.5', '', '<b>3</b>'];
    expect(refused.filter(isServerVersion)).toEqual([]);
    expect(['1000', '9a', '', ' 9', TOKEN].filter(isApiVersion)).toEqual([]);
    expect(withCheckedVersions({ docs_url: 'http://x', docs_version: TOKEN.slice(0, 12), docs_api_version: '10' })).toEqual({
      docs_url: 'http://x',
      docs_api_version: '10',
    });
  });
});

describe.each(['2.20', '3.0'] as const)('a hostile archive server %s', (version) => {
  let emulator: ArchiveEmulator;
  useArchiveEmulator({ version, tokens: [TOKEN], echoToken: true }, (started) => (emulator = started));

  function client(seen: ArchiveVersions[] = [], logger = captureLogger().logger) {
    return createArchiveClient({ url: emulator.url, token: TOKEN, allowLocal: true }, { timeouts: FAST, onVersions: (v) => seen.push(v), logger });
  }

  it('gets no string of any answer, nor a version header, past the client', async () => {
    const seen: ArchiveVersions[] = [];
    const log = captureLogger();
    const archive = client(seen, log.logger);
    const answers: unknown[] = [];
    // Seven answers in a row: every header form of the emulator comes once.
    for (let round = 0; round < 2; round += 1) {
      answers.push(await archive.testConnection());
      const page = await archive.search({ term: 'invoice', page: 1 });
      answers.push(page);
      const newest = await archive.newest();
      answers.push(newest);
      const ids = [...page.hits, ...newest.documents].flatMap((d) => [d.correspondent, d.documentType]).filter((id): id is number => id !== null);
      answers.push([...(await archive.names('correspondents', ids))], [...(await archive.names('document_types', ids))]);
    }
    await archive.close();
    const text = JSON.stringify(answers);
    // The server did echo: the answers hold its marks where the token stood.
    expect(text.split(REDACTED).length).toBeGreaterThan(50);
    expect(text).toMatch(/Invoice/i);
    expect(leaksIn(`${text}\n${JSON.stringify(seen)}\n${JSON.stringify(log.lines())}`, [TOKEN])).toEqual([]);
    // Every version header was refused, each time with a debug line naming the header only.
    expect(seen).toEqual([]);
    const ignored = log.lines().filter((line) => line.msg === 'version headers of the archive server ignored: not a version');
    expect(ignored.length).toBeGreaterThanOrEqual(10);
    expect(ignored[0]?.headers).toEqual(['x-version', 'x-api-version']);
  });

  it('keeps the token out of the text of a failure, also when a forward names it as a host', async () => {
    emulator.faults = [{ match: '/api/documents/', times: 2, redirectTo: `http://${TOKEN.toLowerCase()}.invalid/api/documents/` }];
    // A public-network view of loopback (the switch would refuse every forward), and a name that never resolves.
    const archive = createArchiveClient({ url: emulator.url, token: TOKEN, allowLocal: false }, { timeouts: FAST, isLocalAddress: () => false });
    const failure = await archive.testConnection().then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(DusError);
    expect(failure instanceof DusError ? failure.code : null).toBe('unknown_host');
    const printable = failure instanceof Error ? [failure.message, String(failure.stack), String(failure.cause)].join('\n') : '';
    expect(printable).toContain(REDACTED);
    expect(leaksIn(printable, [TOKEN])).toEqual([]);
  });
});
