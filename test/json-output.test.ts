/**
 * The JSON rule (docs/json.md): every command that prints data gives exactly one JSON value
 * on stdout with --json or --output=json|json_pretty, the result or {"error": {code, message}},
 * with the exit code of the plain run and the human line still on stderr. Each command's
 * output and failure are checked against its schema in docs/json.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { Ajv, type ValidateFunction } from 'ajv';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../src/cli.js';
import { commandModel } from '../src/cli/command-model.js';
import { argvAsksJson } from '../src/cli/output.js';
import { loadCommands } from '../src/commands/list.js';
import { ARCHIVE_ERROR_CODES, LOCAL_ERROR_CODES, SETTINGS_ERROR_CODES } from '../src/core/errors.js';
import { captureIO } from './support/capture-io.js';
import { buildSearchWorld, TOKEN, type SearchWorld } from './support/search-world.js';

const COMMANDS = await loadCommands();

const SCHEMAS = fileURLToPath(new URL('../docs/json/', import.meta.url));
/** Commands that print no data: a server, a shell script, text for people. */
const WITHOUT_JSON = new Set(['serve', 'completion']);

const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
for (const file of readdirSync(SCHEMAS).filter((f) => f.endsWith('.schema.json')))
  ajv.addSchema(JSON.parse(readFileSync(join(SCHEMAS, file), 'utf8')) as object);

function schema(name: string): ValidateFunction {
  const validate = ajv.getSchema(`${name}.schema.json`);
  if (validate === undefined) throw new Error(`docs/json/${name}.schema.json is missing`);
  return validate;
}

function pageOf(name: string): string {
  return name.replace(/^docs_unified_search:/, '').replace(/:/g, '-');
}

interface Run {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

let world: SearchWorld;
let dir: string;
const scratch: string[] = [];

function tempDir(): string {
  const made = mkdtempSync(join(tmpdir(), 'dus-json-'));
  scratch.push(made);
  return made;
}

async function run(args: readonly string[], options: { dir?: string; stdin?: string } = {}): Promise<Run> {
  const io = captureIO({ env: {}, ...(options.stdin === undefined ? {} : { stdin: options.stdin }) });
  const code = await main(['--config-dir', options.dir ?? dir, ...args], io);
  return { code, out: io.out(), err: io.err() };
}

/** Exactly one JSON value on stdout, valid by the command's schema. */
function valid(name: string, result: Run): unknown {
  const value: unknown = JSON.parse(result.out);
  const validate = schema(name);
  expect({ valid: validate(value), errors: validate.errors ?? null }).toEqual({ valid: true, errors: null });
  return value;
}

/** A failure: the error object on stdout (by the command's schema and the error schema), the coded line on stderr. */
function failed(name: string, result: Run, code: string, exit = 1): void {
  expect(result.code).toBe(exit);
  const value = valid(name, result);
  expect(schema('error')(value)).toBe(true);
  expect(value).toEqual({ error: { code, message: expect.any(String) } });
  expect(result.err).toMatch(new RegExp(`^Error \\[${code}\\]: `));
}

/** A result, which must not pass for an error object; stderr holds at most a note for people. */
function succeeded(name: string, result: Run, exit = 0, note = ''): unknown {
  expect({ code: result.code, err: result.err }).toEqual({ code: exit, err: note });
  const value = valid(name, result);
  expect(schema('error')(value)).toBe(false);
  return value;
}

beforeAll(async () => {
  world = await buildSearchWorld(12);
  dir = (await world.context()).dir;
});

afterAll(async () => {
  await world.close();
  for (const made of scratch) rmSync(made, { recursive: true, force: true });
});

describe('every command that prints data takes --json and --output, and has a schema', () => {
  test.each(COMMANDS.filter((spec) => !WITHOUT_JSON.has(spec.name)).map((spec) => [spec.name, spec] as const))('%s', (_name, spec) => {
    const model = commandModel(spec);
    const longs = model.options.map((option) => option.long);
    expect(longs).toEqual(expect.arrayContaining(['--json', '--output']));
    expect(() => schema(pageOf(spec.name))).not.toThrow();
  });

  test('the error schema names every error code of the suite', () => {
    const enumerated = (
      JSON.parse(readFileSync(join(SCHEMAS, 'error.schema.json'), 'utf8')) as { properties: { error: { properties: { code: { enum: string[] } } } } }
    ).properties.error.properties.code.enum;
    expect([...enumerated].sort()).toEqual([...ARCHIVE_ERROR_CODES, ...SETTINGS_ERROR_CODES, ...LOCAL_ERROR_CODES].sort());
  });
});

describe('results and failures by their schemas', () => {
  test("search: the spec's item fields first, then the added ones; an unknown user is an error object", async () => {
    const items = succeeded('search', await run(['search', 'bob', 'invoice', '--json', '--explain'])) as Record<string, unknown>[];
    expect(items.length).toBeGreaterThan(0);
    // The spec's five fields first, then the added ones (never renamed).
    for (const item of items) expect(Object.keys(item)).toEqual(['id', 'title', 'verdict', 'path', 'owner', 'explanation', 'found', 'cursor']);
    failed('search', await run(['search', 'nobody', 'invoice', '--json']), 'unknown_user');
  });

  test('why', async () => {
    succeeded('why', await run(['why', 'bob', '8', '--json']));
    succeeded('why', await run(['why', 'bob', '3', '--output=json']));
    failed('why', await run(['why', 'nobody', '3', '--json']), 'unknown_user');
    failed('why', await run(['why', 'bob', 'twelve', '--json']), 'usage', 2);
  });

  test('check: a result with exit 0, results with exit 1 (a correction, a failed part), and an error', async () => {
    expect(succeeded('check', await run(['check', '--json']))).toMatchObject({ ok: true });
    const { dir: other, ctx } = await world.context();
    ctx.settings.update({ archive_owner: 'bob' });
    expect(succeeded('check', await run(['check', '--json'], { dir: other }), 1)).toMatchObject({ ok: false, correction: expect.any(String) });
    ctx.settings.update({ archive_owner: 'ghost' });
    const missing = await run(['check', '--json'], { dir: other });
    expect(missing.err).toMatch(/^Error \[unknown_archive_account\]: /);
    expect(succeeded('check', { ...missing, err: '' }, 1)).toMatchObject({ ok: false, failures: [{ code: 'unknown_archive_account' }] });
    failed('check', await run(['check', '--json', '--min-coverage=x'], { dir: other }), 'usage', 2);
  });

  test('test', async () => {
    expect(succeeded('test', await run(['test', '--json']))).toMatchObject({ url: world.archive.url, documents: 12 });
    failed('test', await run(['test', '--json'], { dir: tempDir() }), 'not_configured');
  });

  test('setup: the saved settings without the token; a wrong call', async () => {
    const fresh = tempDir();
    const saved = await run(['--host-db', world.host.dbUrl, 'setup', `--url=${world.archive.url}`, '--token-stdin', '--allow-local', '--json'], {
      dir: fresh,
      stdin: `${TOKEN}\n`,
    });
    expect(succeeded('setup', saved)).toMatchObject({ url: world.archive.url, tokenConfigured: true, allowLocal: true });
    expect(saved.out).not.toContain(TOKEN);
    failed('setup', await run(['setup', '--json'], { dir: fresh }), 'usage', 2);
  });

  test('config:app:get, set, delete', async () => {
    expect(succeeded('config-app-get', await run(['config:app:get', 'docs_unified_search', 'docs_url', '--json']))).toBe(world.archive.url);
    succeeded('config-app-get', await run(['config:app:get', 'docs_unified_search', 'allow_local', '--details', '--output=json']));
    failed('config-app-get', await run(['config:app:get', 'docs_unified_search', 'archive_owner', '--json']), 'not_configured');
    failed('config-app-get', await run(['config:app:get', 'other_app', 'x', '--json']), 'config_refused');
    expect(succeeded('config-app-set', await run(['config:app:set', 'docs_unified_search', 'always_search', '--value=true', '--json']))).toEqual({
      app: 'docs_unified_search',
      key: 'always_search',
      value: true,
      updated: true,
    });
    expect(succeeded('config-app-set', await run(['config:app:set', 'docs_unified_search', 'always_search', '--value=true', '--json']))).toMatchObject({
      updated: false,
    });
    failed('config-app-set', await run(['config:app:set', 'docs_unified_search', 'docs_url', '--value=https://x.example', '--json']), 'config_refused');
    failed('config-app-set', await run(['config:app:set', 'docs_unified_search', 'archive_owner', '--value=x', '--update-only', '--json']), 'not_configured');
    expect(succeeded('config-app-delete', await run(['config:app:delete', 'docs_unified_search', 'always_search', '--json']))).toEqual({
      app: 'docs_unified_search',
      key: 'always_search',
      deleted: true,
    });
    failed('config-app-delete', await run(['config:app:delete', 'docs_unified_search', 'always_search', '--error-if-not-exists', '--json']), 'not_configured');
  });

  test('setupchecks and maintenance:repair; a broken settings file is an error object', async () => {
    succeeded('setupchecks', await run(['setupchecks', '--json']));
    succeeded('maintenance-repair', await run(['maintenance:repair', '--json']));
    const broken = tempDir();
    writeFileSync(join(broken, 'settings.json'), '{"docs_url": ');
    failed('setupchecks', await run(['setupchecks', '--json'], { dir: broken }), 'internal');
    failed('maintenance-repair', await run(['maintenance:repair', '--json'], { dir: broken }), 'internal');
  });

  test('bridge:secret: where the secret is, never the secret', async () => {
    const fresh = tempDir();
    const made = succeeded(
      'bridge-secret',
      await run(['bridge:secret', '--json'], { dir: fresh }),
      0,
      `Made the bridge secret in ${join(fresh, 'bridge-secret')} (mode 0600).\n`,
    ) as { path: string };
    expect(made).toMatchObject({ created: true, rotated: false });
    expect(made.path.startsWith(fresh)).toBe(true);
    expect((await run(['bridge:secret', '--json'], { dir: fresh })).out).not.toContain(readFileSync(made.path, 'utf8').trim());
    const blocked = join(fresh, 'a-file');
    writeFileSync(blocked, '');
    failed('bridge-secret', await run(['bridge:secret', '--json'], { dir: join(blocked, 'below') }), 'internal');
  });
});

describe('the rule itself', () => {
  test('--output=json_pretty is the same value, indented; --output=plain is the human output', async () => {
    const compact = await run(['why', 'bob', '8', '--json']);
    const pretty = await run(['why', 'bob', '8', '--output=json_pretty']);
    expect(JSON.parse(pretty.out)).toEqual(JSON.parse(compact.out));
    expect(pretty.out).toContain('\n    "verdict": "not shared"');
    expect((await run(['why', 'bob', '8', '--output=plain'])).out).toMatch(/^Document 8 for bob: not shared/);
  });

  test('a wrong call commander finds still answers --json with one error object, exit 2', async () => {
    failed('search', await run(['search', 'bob', '--json']), 'usage', 2);
    failed('check', await run(['check', '--json', '--bogus']), 'usage', 2);
    failed('why', await run(['why', 'bob', '8', '--json', '--output=plain']), 'usage', 2);
    const plain = await run(['search', 'bob']);
    expect({ code: plain.code, out: plain.out }).toEqual({ code: 2, out: '' });
  });

  test('which command lines ask for JSON before a command runs', () => {
    expect(argvAsksJson(['search', 'bob', '--json'])).toBe('json');
    expect(argvAsksJson(['check', '--output', 'json_pretty'])).toBe('json_pretty');
    expect(argvAsksJson(['check', '--json', '--output=json_pretty'])).toBe('json_pretty');
    expect(argvAsksJson(['check', '--output=plain'])).toBeNull();
    expect(argvAsksJson(['search', 'bob', '--', '--json'])).toBeNull();
  });

  test('an unknown --output format is a wrong call', async () => {
    const result = await run(['check', '--output=yaml']);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/^Error \[usage\]: .*--output/);
    expect(result.out).toBe('');
  });

  test('the same exit code as the plain run, and the human line on stderr', async () => {
    const plain = await run(['search', 'nobody', 'invoice']);
    const json = await run(['search', 'nobody', 'invoice', '--json']);
    expect(json.code).toBe(plain.code);
    expect(json.err).toBe(plain.err);
  });
});
