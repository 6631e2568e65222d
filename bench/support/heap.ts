/** Memory readings after a full collection, so a difference is what stays reachable. */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// --expose-gc set at run time: each bench stays runnable as a plain `node dist-tools/bench/x.js`.
setFlagsFromString('--expose-gc');
const collected: unknown = runInNewContext('gc');

/**
 * Bytes in use after a full collection: the JS heap plus memory outside it that JS objects
 * hold (typed arrays' backing stores, Buffers), where the marker index keeps its pairs.
 */
export function heapUsed(): number {
  if (typeof collected === 'function') collected();
  const { heapUsed: heap, external } = process.memoryUsage();
  return heap + external;
}
