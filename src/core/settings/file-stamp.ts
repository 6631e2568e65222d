import { statSync } from 'node:fs';

/** A file older than this is trusted by its stamp: a later write cannot carry the same change time. */
const SETTLED_NS = 100_000_000n;

export interface FileStamp {
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
export function fileStamp(path: string): FileStamp | null {
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
