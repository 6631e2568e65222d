import { Ajv, type ErrorObject } from 'ajv';
import { APP_CONFIG_KEYS, KEY_DEFINITIONS } from './schema.js';
import type { AppConfig } from './types.js';

/** The settings file's shape check, apart from the key list so that `--help` and completion do not load Ajv. */
const schema = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(APP_CONFIG_KEYS.map((key) => [key, { type: KEY_DEFINITIONS[key].type }])),
};

const ajv = new Ajv({ allErrors: true });
const validate = ajv.compile<AppConfig>(schema);

function describe(error: ErrorObject): string {
  if (error.keyword === 'additionalProperties') {
    const extra = (error.params as { additionalProperty?: unknown }).additionalProperty;
    return `unknown key ${JSON.stringify(extra)}`;
  }
  const key = error.instancePath.replace(/^\//, '');
  return key === '' ? `the file ${error.message ?? 'is not valid'}` : `key ${key} ${error.message ?? 'is not valid'}`;
}

/** Null when the value is a valid AppConfig, else the reasons, one per problem. */
export function appConfigProblems(value: unknown): string[] | null {
  if (validate(value)) return null;
  return (validate.errors ?? []).map(describe);
}
