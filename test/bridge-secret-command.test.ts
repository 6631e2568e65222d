import { describe, expect, test } from '@jest/globals';
import { chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../src/cli.js';
import { captureIO } from './support/capture-io.js';

/** How the hint switches to the web server's account from the account running the tests: root needs no sudo. */
const SWITCH = process.getuid?.() === 0 ? 'runuser -u www-data -- ' : 'sudo -u www-data ';

function withConfigDir(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'dus-bridge-secret-'));
  return run(join(dir, 'config')).finally(() => rmSync(dir, { recursive: true, force: true }));
}

describe('bridge:secret', () => {
  test('into a pipe it writes the secret alone; it is made once, kept 0600, replaced by --rotate', () =>
    withConfigDir(async (dir) => {
      const first = captureIO({ env: { DUS_CONFIG_DIR: dir } });
      expect(await main(['bridge:secret'], first)).toBe(0);
      const secret = first.out().trim();
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(first.err()).toContain('Made the bridge secret');
      const file = join(dir, 'bridge-secret');
      expect(readFileSync(file, 'utf8').trim()).toBe(secret);
      expect(statSync(file).mode & 0o777).toBe(0o600);

      const again = captureIO({ env: { DUS_CONFIG_DIR: dir } });
      expect(await main(['docs_unified_search:bridge-secret'], again)).toBe(0);
      expect(again.out().trim()).toBe(secret);
      expect(again.err()).toBe('');

      const rotated = captureIO({ env: { DUS_CONFIG_DIR: dir } });
      expect(await main(['bridge:secret', '--rotate'], rotated)).toBe(0);
      expect(rotated.out().trim()).not.toBe(secret);
      expect(readFileSync(file, 'utf8').trim()).toBe(rotated.out().trim());
    }));

  test('on a terminal it names the file and the pipe, never the secret', () =>
    withConfigDir(async (dir) => {
      const io = captureIO({ env: { DUS_CONFIG_DIR: dir }, tty: true });
      expect(await main(['bridge:secret'], io)).toBe(0);
      const secret = readFileSync(join(dir, 'bridge-secret'), 'utf8').trim();
      // No Nextcloud directory known: Debian's, and its web server's account.
      expect(io.out()).toContain(`| ${SWITCH}php /var/www/nextcloud/occ docs_unified_search:bridge-secret`);
      expect(io.out() + io.err()).not.toContain(secret);
    }));

  test('on a narrow terminal the sentence is broken at spaces, the command to paste stays one line', () =>
    withConfigDir(async (dir) => {
      const io = captureIO({ env: { DUS_CONFIG_DIR: dir }, tty: true, columns: 50 });
      expect(await main(['--no-color', 'bridge:secret'], io)).toBe(0);
      const lines = io.out().trimEnd().split('\n');
      const command = lines.at(-1) ?? '';
      expect(command).toMatch(/^ {2}docs-unified-search .*bridge:secret \| .*occ docs_unified_search:bridge-secret$/);
      const sentence = lines.slice(0, -1);
      expect(sentence.length).toBeGreaterThan(1);
      // A word wider than the terminal (the path) stands whole on a line of its own.
      for (const line of sentence) expect([line, line.length <= 50 || !line.trim().includes(' ')]).toEqual([line, true]);
      expect(sentence.join(' ').replace(/ {3}/g, ' ')).toContain('Give it to Nextcloud through a pipe, so that it stands on no command line:');
    }));

  test('on a terminal with --config-dir: the pipe to paste carries the same directory (quoted for the shell)', () =>
    withConfigDir(async (base) => {
      const dir = join(base, "it's here");
      const io = captureIO({ env: {}, tty: true });
      expect(await main(['--config-dir', dir, 'bridge:secret'], io)).toBe(0);
      const quoted = `'${dir.replace(/'/g, `'\\''`)}'`;
      expect(io.out()).toContain(`  docs-unified-search --config-dir ${quoted} bridge:secret | ${SWITCH}php`);
      const secret = readFileSync(join(dir, 'bridge-secret'), 'utf8').trim();
      expect(io.out() + io.err()).not.toContain(secret);
    }));

  test("on a terminal the pipe names this machine's Nextcloud: its directory (given, else stored) and the owner of its config.php", () =>
    withConfigDir(async (dir) => {
      const nc = join(dir, '..', 'srv nextcloud');
      mkdirSync(join(nc, 'config'), { recursive: true });
      writeFileSync(join(nc, 'config', 'config.php'), '<?php $CONFIG = [];\n');
      // As root the file goes to nobody, the web server's stand-in, reached with runuser; otherwise the file is the tester's own, and occ runs as is.
      const root = process.getuid?.() === 0;
      if (root) chownSync(join(nc, 'config', 'config.php'), 65534, 65534);
      const expected = `${root ? 'runuser -u nobody -- ' : ''}php '${join(nc, 'occ')}' docs_unified_search:bridge-secret`;

      const given = captureIO({ env: { DUS_CONFIG_DIR: dir }, tty: true });
      expect(await main(['--nextcloud', nc, 'bridge:secret'], given)).toBe(0);
      expect(given.out()).toContain(`bridge:secret | ${expected}\n`);

      writeFileSync(join(dir, 'settings.json'), JSON.stringify({ nextcloud_dir: nc }));
      const stored = captureIO({ env: { DUS_CONFIG_DIR: dir }, tty: true });
      expect(await main(['bridge:secret'], stored)).toBe(0);
      expect(stored.out()).toContain(`bridge:secret | ${expected}\n`);
      rmSync(nc, { recursive: true, force: true });
    }));
});
