/**
 * Issue 36, row 4: the host's base URL for links (`--host-url`/`DUS_HOST_URL`, the stored
 * `host_url`, config.php's `overwrite.cli.url`) is checked where it enters, by the archive
 * server URL's codes; a refused one never reaches a link the CLI or serve prints.
 */
import { describe, expect, test } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DusError } from '../src/core/errors.js';
import { normalizeHostUrl } from '../src/core/host/db/host-url.js';
import { openContext } from '../src/core/context.js';
import { overviewFindings } from '../src/core/diagnostics/overview-check.js';
import { useCliWorld } from './support/cli-world.js';

function codeOf(input: string): string {
  try {
    return `accepted ${normalizeHostUrl(input, '--host-url/DUS_HOST_URL')}`;
  } catch (error: unknown) {
    if (error instanceof DusError) return error.code;
    throw error;
  }
}

describe('normalizeHostUrl', () => {
  test.each([
    ['https://cloud.example.com/', 'accepted https://cloud.example.com'],
    ['http://localhost:8080', 'accepted http://localhost:8080'],
    ['https://example.com/nextcloud/', 'accepted https://example.com/nextcloud'],
    ['HTTPS://Cloud.Example.COM', 'accepted https://cloud.example.com'],
    ['http://[::1]:8080/', 'accepted http://[::1]:8080'],
    ['https://bücher.example', 'accepted https://xn--bcher-kva.example'],
    ['javascript:alert(document.cookie)', 'unsupported_scheme'],
    ['JavaScript://%0aalert(1)', 'unsupported_scheme'],
    ['data:text/html,<script>', 'unsupported_scheme'],
    ['ftp://cloud.example.com', 'unsupported_scheme'],
    ['not a url', 'invalid_url'],
    ['cloud.example.com', 'invalid_url'],
    ['', 'invalid_url'],
    ['https:cloud.example.com', 'invalid_url'],
    ['https://', 'invalid_url'],
    ['https://cloud.example.com/a b', 'invalid_url'],
    ['https://cloud.example.com/\u001b[2J', 'invalid_url'],
    ['https://cloud.exa\nmple.com', 'invalid_url'],
    ['https://cloud.example.com:99999', 'invalid_url'],
    ['https://user:secret@cloud.example.com', 'url_extras'],
    ['https://cloud.example.com/?next=evil', 'url_extras'],
    ['https://cloud.example.com/#x', 'url_extras'],
  ])('%j: %s', (input, outcome) => {
    expect(codeOf(input)).toBe(outcome);
  });

  test('the refusal names where the value came from and what to give', () => {
    expect(() => normalizeHostUrl('javascript:alert(1)', 'host_url')).toThrow(
      'The Nextcloud URL for links (host_url) must start with http:// or https://, not javascript:.',
    );
    expect(() => normalizeHostUrl('not a url', 'overwrite.cli.url, /srv/nc/config/config.php')).toThrow(
      "The Nextcloud URL for links (overwrite.cli.url, /srv/nc/config/config.php) is not a URL: give Nextcloud's address as http(s)://host[:port][/path], for example https://cloud.example.com.",
    );
  });
});

const cli = useCliWorld(8);

describe('where the host URL enters', () => {
  test.each([
    [['--host-url', 'javascript:alert(1)'], {}, 'unsupported_scheme', 'must start with http:// or https://, not javascript:'],
    [[], { DUS_HOST_URL: 'not a url' }, 'invalid_url', 'is not a URL'],
    [['--host-url', 'https://me:pw@cloud.example.com'], {}, 'url_extras', 'must not carry a user name'],
  ])('%j %j: every command refuses it, exit 1 with %s, naming --host-url', async (args, env, code, said) => {
    for (const command of [
      ['search', 'bob', 'invoice'],
      ['who', '1'],
    ]) {
      const result = await cli.run([...args, ...command], { env });
      expect(result.code).toBe(1);
      expect(result.err).toContain(`Error [${code}]: The Nextcloud URL for links (--host-url/DUS_HOST_URL) ${said}`);
      expect(result.out).not.toContain('javascript:');
    }
    const json = await cli.run([...args, 'search', 'bob', 'invoice', '--json'], { env });
    expect(JSON.parse(json.out)).toMatchObject({ error: { code } });
  });

  test('setup does not store a refused --host-url; config:app:set refuses it for host_url', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dus-host-url-'));
    try {
      const setup = await cli.run(
        ['--config-dir', dir, '--host-db', cli.world.host.dbUrl, '--host-url', 'not a url', 'setup', '--url', cli.world.archive.url, '--token-env', 'TOKEN'],
        {
          env: { TOKEN: 'emulator-token' },
        },
      );
      expect([setup.code, setup.err]).toEqual([
        1,
        expect.stringContaining('Error [invalid_url]: The Nextcloud URL for links (--host-url/DUS_HOST_URL)') as unknown as string,
      ]);
      expect(() => readFileSync(join(dir, 'settings.json'), 'utf8')).toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const set = await cli.run(['config:app:set', 'docs_unified_search', 'host_url', '--value', 'javascript:alert(1)']);
    expect(set.code).toBe(1);
    expect(set.err).toContain('Error [unsupported_scheme]: The Nextcloud URL for links (host_url) must start with http:// or https://');
    const kept = await cli.run(['config:app:set', 'docs_unified_search', 'host_url', '--value', 'https://Cloud.Example.com/']);
    expect(kept.code).toBe(0);
    expect((await cli.run(['config:app:get', 'docs_unified_search', 'host_url'])).out.trim()).toBe('https://cloud.example.com');
  });

  test('a refused value stored before the rule: commands refuse it naming host_url, and the overview check makes no link of it', async () => {
    const file = join(cli.dir, 'settings.json');
    const before = readFileSync(file, 'utf8');
    try {
      writeFileSync(file, JSON.stringify({ ...(JSON.parse(before) as object), host_url: 'javascript:alert(1)' }));
      const result = await cli.run(['search', 'bob', 'invoice']);
      expect([result.code, result.err]).toEqual([
        1,
        expect.stringContaining('Error [unsupported_scheme]: The Nextcloud URL for links (host_url) must start with http:// or https://') as unknown as string,
      ]);
      const ctx = openContext({ configDir: cli.dir, logFile: join(cli.dir, 'host.log'), env: {} });
      try {
        const findings = await overviewFindings(ctx);
        expect(findings.link).toBe('/settings/admin/docs_unified_search');
        expect(JSON.stringify(findings)).not.toContain('javascript:');
      } finally {
        await ctx.close();
      }
    } finally {
      writeFileSync(file, before);
    }
  });

  test("config.php's overwrite.cli.url: a refused one names the key and the file; a given --host-url replaces it", async () => {
    const nc = mkdtempSync(join(tmpdir(), 'dus-nc-'));
    try {
      await cli.world.host.writeNextcloudDir(nc, { 'overwrite.cli.url': 'not a url' });
      const location = ['--host-db', '', '--nextcloud', nc];
      const refused = await cli.run([...location, 'search', 'bob', 'invoice']);
      expect(refused.code).toBe(1);
      expect(refused.err).toContain(`Error [invalid_url]: The Nextcloud URL for links (overwrite.cli.url, ${join(nc, 'config', 'config.php')}) is not a URL`);
      const replaced = await cli.run([...location, '--host-url', 'https://cloud.example.com', 'search', 'bob', 'invoice', '--json']);
      expect(replaced.code).toBe(0);
    } finally {
      rmSync(nc, { recursive: true, force: true });
    }
  });
});
