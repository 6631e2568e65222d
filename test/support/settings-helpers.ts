import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every byte under a directory as one text, for proving that a secret is nowhere in clear. */
export function everyFileUnder(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => readFileSync(path, 'latin1'))
    .join('\n');
}
