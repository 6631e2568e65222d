import { DusError } from '../core/errors.js';

/** A document id as people write it: `412`, or its marker `[P412]` (the P in either case). */
export function documentIdOf(value: string | undefined): number {
  const text = (value ?? '').trim().replace(/^\[?P/i, '').replace(/\]$/, '');
  if (!/^\d{1,15}$/.test(text) || Number(text) < 1) throw new DusError('usage', 'Give the document id as a whole number from 1 (412, or its marker [P412]).');
  return Number(text);
}
