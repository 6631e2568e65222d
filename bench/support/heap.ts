/** Memory readings after full collections, so a difference is what stays reachable. */
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// --expose-gc set at run time: each bench stays runnable as a plain `node dist-tools/bench/x.js`.
setFlagsFromString('--expose-gc');
const gc: unknown = runInNewContext('gc');
const collected = typeof gc === 'function' ? (gc as () => void) : null;

/**
 * Bytes in use after full collections: the JS heap plus memory outside it that JS objects
 * hold (typed arrays' backing stores, Buffers), where the marker index keeps its pairs. The
 * backing stores of dead arrays are freed after the collection, off the main thread: collect,
 * let that finish, collect again.
 */
export async function heapUsed(): Promise<number> {
  for (let round = 0; round < 3; round += 1) {
    collected?.();
    await sleep(100);
  }
  const { heapUsed: heap, external } = process.memoryUsage();
  return heap + external;
}
