import { expect } from '@jest/globals';
import { DusError } from '../../src/core/errors.js';

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
