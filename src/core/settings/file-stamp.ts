import { statSync } from 'node:fs';

/** A file older than this is trusted by its stamp: a later write cannot carry the same change time. */
const SETTLED_NS = 100_000_000n;

interface FileStamp {
  /** Device, inode, size and change times; a write by rename or in place changes it. */
  readonly key: string;
  /** Changed more than 100 ms ago: the key alone tells a later change. */
  readonly settled: boolean;
}

/**
 * Identity and version of a file, or null when there is none (or it cannot be looked at). A freed
 * inode number can come back and file times are as coarse as the kernel's clock tick, so, as git
 * does with its index, a file changed in the last 100 ms is not `settled` and callers read it again.
 */
function fileStamp(path: string): FileStamp | null {
  try {
    const stat = statSync(path, { bigint: true });
    const changed = stat.mtimeNs > stat.ctimeNs ? stat.mtimeNs : stat.ctimeNs;
    return {
      key: `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`,
      settled: BigInt(Date.now()) * 1_000_000n - changed >= SETTLED_NS,
    };
  } catch {
    return null;
  }
}

/** The stamp of a file when it is there and settled: a key under which what was read from it may be kept. */
export function settledStamp(path: string): string | null {
  const stamp = fileStamp(path);
  return stamp !== null && stamp.settled ? stamp.key : null;
}

/**
 * What was last read from some files, reused while their stamps are the same. `key` gives the
 * stamps (null when a file is missing or not settled: then the files are read and nothing is
 * kept); a reading is kept only when the stamps did not move while it was made.
 */
export class StampedValue<T> {
  #last: { readonly key: string; readonly value: T } | undefined;

  get(key: () => string | null, read: () => T): T {
    const before = key();
    if (before !== null && this.#last?.key === before) return this.#last.value;
    const value = read();
    this.#last = before !== null && key() === before ? { key: before, value } : undefined;
    return value;
  }

  forget(): void {
    this.#last = undefined;
  }
}
