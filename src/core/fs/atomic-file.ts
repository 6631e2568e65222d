import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { nodeCrypto } from '../node-crypto.js';

export interface AtomicWriteOptions {
  /**
   * Sync the data to disk before the rename (default). A file that a reader checks and can
   * rebuild (the marker index) goes without: a file cut short by a crash fails its checks.
   */
  readonly flush?: boolean;
}

/** A name beside `path` that no other process or call picks: where a file is written before it is moved into place. */
export function temporaryPath(path: string): string {
  return `${path}.${process.pid}.${nodeCrypto().randomBytes(6).toString('hex')}.tmp`;
}

/**
 * Writes a private file (mode 0600) by renaming a finished temporary file over it, so a
 * reader sees either the old or the new content, never a part. The content is a string, or
 * binary parts written one after the other (no copy of a large index into one buffer).
 */
export function writePrivateFileAtomic(path: string, content: string | readonly Uint8Array[], options: AtomicWriteOptions = {}): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = temporaryPath(path);
  try {
    const fd = openSync(temporary, 'wx', 0o600);
    try {
      for (const part of typeof content === 'string' ? [Buffer.from(content, 'utf8')] : content) {
        for (let done = 0; done < part.length;) done += writeSync(fd, part, done, part.length - done);
      }
      if (options.flush !== false) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error: unknown) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
