import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { DusError, messageOf } from '../../errors.js';
import { msg } from '../../i18n/catalog.js';
import { readVarExportConfig, type PhpConfig, type PhpValue } from './config-var-export.js';

export type { PhpConfig, PhpValue };

type Node = { readonly kind: string; readonly [key: string]: unknown };

/**
 * Reads the host's config: config/config.php, then every config/*.config.php in natural
 * order, each shallowly merged over the previous (reference §6, the host's `readData`).
 * Each file is parsed without executing anything; only a file holding something that is not a
 * static value (an overlay calling `getenv()`, say) is evaluated by PHP itself, when `php` is
 * installed (its first evaluation tells; one start of php per such file), and refused otherwise. A host whose config is plain
 * values, as the installer writes it, never starts `php` (96 ms on opening before), nor loads
 * the PHP parser: config-var-export.ts reads that layout (bench/host-open.ts).
 * `usePhp`: true evaluates every file with PHP, false never.
 */
export async function readNextcloudConfig(nextcloudDir: string, options: { usePhp?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<PhpConfig> {
  const env = options.env ?? process.env;
  if (!existsSync(nextcloudDir) || !statSync(nextcloudDir).isDirectory()) {
    throw new DusError('host_config', msg('host_config.no_directory', { path: nextcloudDir }));
  }
  const configDir = env.NEXTCLOUD_CONFIG_DIR !== undefined && env.NEXTCLOUD_CONFIG_DIR !== '' ? env.NEXTCLOUD_CONFIG_DIR : join(nextcloudDir, 'config');
  const main = join(configDir, 'config.php');
  if (!existsSync(main)) {
    throw new DusError('host_config', msg('host_config.no_config', { file: main }));
  }
  const files = [main, ...overlayFiles(configDir)];
  let merged: PhpConfig = {};
  for (const file of files) merged = { ...merged, ...(await readConfigFile(file, options.usePhp)) };
  return merged;
}

async function readConfigFile(file: string, usePhp: boolean | undefined): Promise<PhpConfig> {
  if (usePhp === true) return evaluateWithPhp(file);
  try {
    return parseConfigFile(file);
  } catch (refusal) {
    if (usePhp === false || phpMissing) throw refusal;
    // The evaluation is its own probe: one start of php, not a probe and then a run.
    try {
      return await evaluateWithPhp(file);
    } catch (error) {
      if (phpMissing) throw refusal;
      throw error;
    }
  }
}

/** Set when starting `php` failed with ENOENT: not installed, not tried again in this process. */
let phpMissing = false;

let phpStarts = 0;
/** How many times `php` was started in this process (probe and evaluations): tests hold the rule above. */
export function phpStartCount(): number {
  return phpStarts;
}

function overlayFiles(configDir: string): string[] {
  const names = readdirSync(configDir).filter((n) => n.endsWith('.config.php') && n !== 'config.php');
  // PHP's natsort: digit runs compare as numbers, case-sensitive otherwise.
  names.sort(new Intl.Collator('en', { numeric: true, sensitivity: 'variant', caseFirst: 'upper' }).compare);
  return names.map((n) => join(configDir, n));
}

let phpProbe: Promise<boolean> | null = null;
export function phpAvailable(): Promise<boolean> {
  phpProbe ??= new Promise((resolve) => {
    phpStarts += 1;
    process.getBuiltinModule('node:child_process').execFile('php', ['-r', 'echo PHP_VERSION;'], { timeout: 5000 }, (error) => resolve(error === null));
  });
  return phpProbe;
}

async function evaluateWithPhp(file: string): Promise<PhpConfig> {
  // The file name is passed as an argument, never spliced into the code.
  const code = '$CONFIG = []; include $argv[1]; echo json_encode($CONFIG);';
  const { execFile } = process.getBuiltinModule('node:child_process');
  phpStarts += 1;
  return new Promise((resolve, reject) => {
    execFile('php', ['-r', code, '--', file], { timeout: 10000, maxBuffer: 4 * 1024 * 1024 }, (error, stdout) => {
      if (error !== null) {
        if (error.code === 'ENOENT') phpMissing = true;
        reject(
          new DusError(
            'host_config',
            `${file} could not be evaluated by php (${error.message.split('\n')[0] ?? ''}); fix the file so that \`php -l\` accepts it.`,
          ),
        );
        return;
      }
      try {
        const value = JSON.parse(stdout) as unknown;
        resolve(value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as PhpConfig) : {});
      } catch {
        reject(new DusError('host_config', msg('host_config.no_array', { file })));
      }
    });
  });
}

interface PhpEngine {
  parseCode(source: string, file: string): unknown;
}

let engine: PhpEngine | undefined;

/** The PHP parser, loaded when a config.php is first read: a command given --host-db, or --help, never loads it. */
function phpEngine(): PhpEngine {
  if (engine === undefined) {
    // The package's CommonJS export is the Engine class itself; its typings only declare it as a member.
    const EngineClass = createRequire(import.meta.url)('php-parser') as new (options: object) => PhpEngine;
    engine = new EngineClass({ parser: { php8: true, suppressErrors: false, extractDoc: false }, ast: { withPositions: true } });
  }
  return engine;
}

/** Parses one config file without executing it: the host's own layout at once, anything else with the PHP parser. */
export function parseConfigFile(file: string): PhpConfig {
  const source = readFileSync(file, 'utf8');
  return readVarExportConfig(source) ?? parseWithEngine(source, file);
}

/** The general parser alone (tests compare the two readers). */
export function parseWithEngine(source: string, file: string): PhpConfig {
  let program: Node;
  try {
    program = asNode(phpEngine().parseCode(source, file)) ?? { kind: 'program', children: [] };
  } catch (error) {
    const detail = messageOf(error);
    throw new DusError('host_config', msg('host_config.not_php', { file, detail }));
  }
  const config: PhpConfig = {};
  const context = { file, dir: join(file, '..') };
  for (const statement of children(program)) {
    if (statement.kind === 'inline' || statement.kind === 'declare') continue;
    if (statement.kind !== 'expressionstatement') refuse(context, statement, 'a statement other than an assignment to $CONFIG');
    const expression = asNode(statement.expression);
    if (expression === null || expression.kind !== 'assign' || expression.operator !== '=')
      refuse(context, statement, 'a statement other than an assignment to $CONFIG');
    const left = asNode(expression.left);
    if (left !== null && left.kind === 'variable' && left.name === 'CONFIG') {
      const value = staticValue(context, asNode(expression.right), null);
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        if (Array.isArray(value) && value.length === 0) continue;
        refuse(context, expression, '$CONFIG set to something other than an array');
      }
      for (const key of Object.keys(config)) delete config[key];
      Object.assign(config, value);
    } else if (left !== null && left.kind === 'offsetlookup' && isConfigVariable(asNode(left.what))) {
      const key = staticValue(context, asNode(left.offset), null);
      if (typeof key !== 'string' && typeof key !== 'number') refuse(context, left, 'a $CONFIG key that is not a literal');
      config[String(key)] = staticValue(context, asNode(expression.right), String(key));
    } else {
      refuse(context, statement, 'an assignment to something other than $CONFIG');
    }
  }
  return config;
}

function isConfigVariable(node: Node | null): boolean {
  return node !== null && node.kind === 'variable' && node.name === 'CONFIG';
}

function children(node: Node): Node[] {
  const list = node.children;
  return Array.isArray(list) ? list.map(asNode).filter((n): n is Node => n !== null) : [];
}

function asNode(value: unknown): Node | null {
  return value !== null && typeof value === 'object' && typeof (value as { kind?: unknown }).kind === 'string' ? (value as Node) : null;
}

function lineOf(node: Node): string {
  const loc = node.loc as { start?: { line?: number } } | undefined;
  return loc?.start?.line === undefined ? '' : ` line ${loc.start.line}`;
}

function refuse(context: { file: string }, node: Node, what: string, key?: string | null): never {
  const where = key !== undefined && key !== null ? ` (key '${key}')` : '';
  throw new DusError(
    'host_config',
    `${context.file}${lineOf(node)}${where} holds ${what}, which cannot be read without running PHP; install php on this machine, or write the value literally, or give --host-db instead.`,
  );
}

const CONSTANTS: Readonly<Record<string, PhpValue>> = { true: true, false: false, null: null, php_int_max: Number.MAX_SAFE_INTEGER, directory_separator: '/' };

function staticValue(context: { file: string; dir: string }, node: Node | null, key: string | null): PhpValue {
  if (node === null)
    throw new DusError(
      'host_config',
      key === null ? msg('host_config.empty', { file: context.file }) : msg('host_config.empty_key', { file: context.file, key }),
    );
  switch (node.kind) {
    case 'string':
    case 'nowdoc':
      return String(node.value);
    case 'boolean':
      return node.value === true;
    case 'nullkeyword':
      return null;
    case 'number': {
      const raw = String(node.value).replace(/_/g, '');
      const value = /^0[xX]/.test(raw)
        ? parseInt(raw.slice(2), 16)
        : /^0[bB]/.test(raw)
          ? parseInt(raw.slice(2), 2)
          : /^0[0-7]+$/.test(raw)
            ? parseInt(raw, 8)
            : Number(raw);
      if (Number.isNaN(value)) refuse(context, node, `the number ${raw}`, key);
      return value;
    }
    case 'unary': {
      const inner = staticValue(context, asNode(node.what), key);
      if (typeof inner === 'number' && (node.type === '-' || node.type === '+')) return node.type === '-' ? -inner : inner;
      if (node.type === '!') return !inner;
      return refuse(context, node, 'an expression', key);
    }
    case 'bin': {
      if (node.type !== '.') return refuse(context, node, `an operator '${String(node.type)}'`, key);
      const l = staticValue(context, asNode(node.left), key);
      const r = staticValue(context, asNode(node.right), key);
      if (typeof l === 'object' || typeof r === 'object') return refuse(context, node, 'a concatenation of arrays', key);
      return phpString(l) + phpString(r);
    }
    case 'name': {
      const name = String(node.name).replace(/^\\/, '').toLowerCase();
      if (name in CONSTANTS) return CONSTANTS[name] ?? null;
      return refuse(context, node, `the constant ${String(node.name)}`, key);
    }
    case 'magic':
      if (node.value === '__DIR__') return context.dir;
      if (node.value === '__FILE__') return context.file;
      return refuse(context, node, `${String(node.value)}`, key);
    case 'array': {
      const items = Array.isArray(node.items) ? node.items.map(asNode) : [];
      const isList = items.every((item) => item === null || item.kind !== 'entry' || item.key === null);
      if (isList) return items.map((item) => staticValue(context, item !== null && item.kind === 'entry' ? asNode(item.value) : item, key));
      const object: Record<string, PhpValue> = {};
      let next = 0;
      for (const item of items) {
        if (item === null) continue;
        if (item.kind !== 'entry' || item.unpack === true || item.byRef === true) refuse(context, item, 'an array item that is not a plain entry', key);
        const keyNode = asNode(item.key);
        let k: string;
        if (keyNode === null) {
          k = String(next);
          next += 1;
        } else {
          const kv = staticValue(context, keyNode, key);
          if (typeof kv !== 'string' && typeof kv !== 'number') return refuse(context, keyNode, 'an array key that is not a literal', key);
          k = String(kv);
          if (typeof kv === 'number') next = Math.max(next, kv + 1);
        }
        object[k] = staticValue(context, asNode(item.value), key ?? k);
      }
      // Keys 0..n-1 in order make a list, as json_encode would say of the same PHP array.
      const keys = Object.keys(object);
      if (keys.length > 0 && keys.every((k, i) => k === String(i))) return Object.values(object);
      return object;
    }
    default:
      return refuse(context, node, `an expression (${node.kind})`, key);
  }
}

function phpString(value: string | number | boolean | null): string {
  if (value === null || value === false) return '';
  if (value === true) return '1';
  return String(value);
}
