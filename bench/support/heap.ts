/** Heap readings after a full collection, so a difference is what stays reachable. */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// --expose-gc set at run time: each bench stays runnable as a plain `node dist-tools/bench/x.js`.
setFlagsFromString('--expose-gc');
const collected: unknown = runInNewContext('gc');

/** Bytes of JS heap in use after a full collection. */
export function heapUsed(): number {
  if (typeof collected === 'function') collected();
  return process.memoryUsage().heapUsed;
}
