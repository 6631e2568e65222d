/**
 * Milliseconds on a clock that only moves forward, for measuring how long something took.
 * process.hrtime rather than performance.now(): the first use of `performance` loads perf_hooks
 * and its dozen modules, some 2 ms of a one-shot command's start.
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
