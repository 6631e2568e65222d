/**
 * The quick reader of the host's own config.php layout (var_export) against the general PHP
 * parser, and against PHP itself where it is installed: it must answer what they answer, or
 * nothing (the general parser then reads the file).
 */
import { describe, expect, test } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseWithEngine } from '../src/core/host/db/config-php.js';
import { readVarExportConfig } from '../src/core/host/db/config-var-export.js';
import { runRecordingModules } from './support/loaded-modules.js';
import { phpExport } from './support/host-fixtures/index.js';

const both = (source: string): { quick: unknown; general: unknown } => ({
  quick: readVarExportConfig(source),
  general: parseWithEngine(source, '/tmp/config.php'),
});

/** A small deterministic generator: the same values on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const STRINGS = [
  '',
  'plain',
  "it's",
  'back\\slash',
  "both \\' kinds",
  'trailing\\',
  '\\n stays two characters',
  'line\nbreak',
  'ünïcødé ✓ 日本',
  '=> , ) (',
  '$CONFIG',
  '<?php',
];

function value(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 2 ? 6 : 8));
  switch (pick) {
    case 0:
      return STRINGS[Math.floor(next() * STRINGS.length)];
    case 1:
      return Math.floor(next() * 20000) - 10000;
    case 2:
      return next() < 0.5;
    case 3:
      return null;
    case 4:
      return Math.round(next() * 1e6) / 1e3 + 0.5;
    case 5:
      return `value ${Math.floor(next() * 100)}`;
    case 6:
      return Array.from({ length: Math.floor(next() * 4) }, () => value(next, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: 1 + Math.floor(next() * 4) }, (_, i) => [`${STRINGS[Math.floor(next() * STRINGS.length)] ?? ''}${i}`, value(next, depth + 1)]),
      );
  }
}

describe('config.php in the host layout', () => {
  test('200 generated configs: the quick reader answers exactly what the PHP parser answers', () => {
    const next = random(7);
    let read = 0;
    for (let i = 0; i < 200; i += 1) {
      const config = Object.fromEntries(Array.from({ length: 1 + Math.floor(next() * 8) }, (_, k) => [`key${k}`, value(next, 0)]));
      const source = `<?php\n$CONFIG = ${phpExport(config, '')};\n`;
      const { quick, general } = both(source);
      expect(quick).toEqual(general);
      if (quick !== null) read += 1;
    }
    // Every one of them is the host's layout: none may fall back.
    expect(read).toBe(200);
  });

  test('a config as the installer writes it', () => {
    const source =
      "<?php\n$CONFIG = array (\n  'instanceid' => 'oc1a2b3c',\n  'passwordsalt' => 'x\\'y',\n  'trusted_domains' => \n  array (\n    0 => 'localhost',\n    1 => 'cloud.example.com',\n  ),\n  'datadirectory' => '/var/www/html/data',\n  'dbtype' => 'pgsql',\n  'version' => '33.0.1.2',\n  'dbport' => '',\n  'dbtableprefix' => 'oc_',\n  'installed' => true,\n  'maintenance' => false,\n  'loglevel' => 2,\n  'memcache.local' => NULL,\n);\n";
    const { quick, general } = both(source);
    expect(quick).toEqual(general);
    expect(quick).toMatchObject({
      passwordsalt: "x'y",
      trusted_domains: ['localhost', 'cloud.example.com'],
      installed: true,
      loglevel: 2,
      'memcache.local': null,
    });
  });

  test.each([
    ['short array syntax', "<?php\n$CONFIG = [ 'dbtype' => 'sqlite3' ];\n"],
    ['double quotes', '<?php\n$CONFIG = array ( "dbtype" => "sqlite3" );\n'],
    ['a comment', "<?php\n// set by hand\n$CONFIG = array ( 'dbtype' => 'sqlite3' );\n"],
    ['a function call', "<?php\n$CONFIG = array ( 'dbhost' => getenv('DB') );\n"],
    ['a constant', "<?php\n$CONFIG = array ( 'datadirectory' => __DIR__ );\n"],
    ['a concatenation', "<?php\n$CONFIG = array ( 'a' => 'x' . 'y' );\n"],
    ['a second statement', "<?php\n$CONFIG = array ( 'a' => 1 );\n$CONFIG['b'] = 2;\n"],
    ['an octal number', "<?php\n$CONFIG = array ( 'mode' => 0750 );\n"],
    ['a hexadecimal number', "<?php\n$CONFIG = array ( 'mode' => 0x1f );\n"],
    ['an unterminated string', "<?php\n$CONFIG = array ( 'a' => 'open );\n"],
    ['no semicolon', "<?php\n$CONFIG = array ( 'a' => 1 )\n"],
    ['a closing tag', "<?php\n$CONFIG = array ( 'a' => 1 );\n?>\n"],
  ])('%s: not the host layout, left to the PHP parser', (_name, source) => {
    expect(readVarExportConfig(source)).toBeNull();
  });

  test('the files the fallback reads still read the same through parseConfigFile (octal, hex, short arrays)', () => {
    expect(parseWithEngine("<?php\n$CONFIG = [ 'mode' => 0750, 'hex' => 0x1f, 'list' => ['a', 'b'] ];\n", '/tmp/c.php')).toEqual({
      mode: 0o750,
      hex: 31,
      list: ['a', 'b'],
    });
  });

  const php = ((): boolean => {
    try {
      execFileSync('php', ['-r', 'echo 1;'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  if (!php) console.log("config-var-export: php is not installed here; the comparison with PHP's own var_export is skipped");
  (php ? test : test.skip)("PHP's own var_export output (floats, negative numbers, escapes, nesting) reads as the PHP parser reads it", () => {
    const code = `$c = ['f' => 1.5, 'g' => 1.0, 'e' => 1.0E+25, 'tiny' => 2.5E-7, 'n' => -42, 'z' => 0, 's' => "a'b\\\\c\\n", 'u' => 'ü', 'l' => [1, 'two', null, false], 'm' => ['x' => ['y' => true]], 7 => 'seven', '08' => 'string key'];
echo "<?php\\n\\$CONFIG = " . var_export($c, true) . ";\\n";`;
    const source = execFileSync('php', ['-r', code], { encoding: 'utf8' });
    const { quick, general } = both(source);
    expect(quick).not.toBeNull();
    expect(quick).toEqual(general);
  });

  test('reading a config.php in the host layout does not load the PHP parser', () => {
    const scratch = mkdtempSync(join(tmpdir(), 'dus-var-export-'));
    try {
      const nc = join(scratch, 'nc');
      const config = join(scratch, 'config.php');
      writeFileSync(config, `<?php\n$CONFIG = ${phpExport({ dbtype: 'sqlite3', datadirectory: nc }, '')};\n`);
      const module = join(import.meta.dirname, '..', 'dist', 'core', 'host', 'db', 'config-php.js');
      const script = `const { parseConfigFile } = await import(${JSON.stringify(module)}); console.log(JSON.stringify(parseConfigFile(${JSON.stringify(config)})));`;
      const run = runRecordingModules(['--input-type=module', '-e', script], scratch);
      expect(run.status).toBe(0);
      expect(run.urls.some((url) => url.includes('/config-php.js'))).toBe(true);
      expect(run.urls.filter((url) => url.includes('php-parser'))).toEqual([]);
      // The recorder does see the parser where a file needs it.
      writeFileSync(config, "<?php\n$CONFIG = [ 'dbtype' => 'sqlite3' ];\n");
      const general = runRecordingModules(['--input-type=module', '-e', script], scratch);
      expect(general.status).toBe(0);
      expect(general.urls.some((url) => url.includes('php-parser'))).toBe(true);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
