import { afterAll, beforeAll, beforeEach, expect } from '@jest/globals';
import { DusError } from '../../src/core/errors.js';
import { startArchiveEmulator } from './archive-emulator/index.js';
import type { ArchiveEmulator, EmulatorOptions } from './archive-emulator/types.js';

/**
 * The DusError a request to the archive server fails with. Whatever a caller could print of
 * it (message, stack, cause, JSON) must hold neither the token nor a URL query.
 */
export async function failureOf(work: Promise<unknown>, token: string): Promise<DusError> {
  const error = await work.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DusError);
  const failure = error as DusError;
  const printable = [failure.message, String(failure.stack), String(failure.cause), JSON.stringify(failure)].join('\n');
  expect(printable).not.toContain(token);
  expect(failure.message).not.toMatch(/\?|page_size|fields=/);
  return failure;
}

/**
 * One emulator for a describe block: started before its tests, closed after them, and reset
 * (no requests recorded, no faults, no latency) before each. `started` hands it to the block.
 */
export function useArchiveEmulator(options: EmulatorOptions, started: (emulator: ArchiveEmulator) => void): void {
  let emulator: ArchiveEmulator | undefined;
  beforeAll(async () => {
    emulator = await startArchiveEmulator(options);
    started(emulator);
  });
  afterAll(async () => {
    await emulator?.close();
  });
  beforeEach(() => {
    emulator?.clearRequests();
    if (emulator !== undefined) {
      emulator.faults = [];
      emulator.latencyMs = 0;
    }
  });
}
