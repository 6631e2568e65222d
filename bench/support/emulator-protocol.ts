/** The lines emulator-process.ts and emulator-child.ts exchange (one JSON object a line). */
import type { EmulatorOptions } from '../../test/support/archive-emulator/index.js';

export type ChildCommand =
  | { readonly id: number; readonly op: 'start'; readonly options: EmulatorOptions }
  | { readonly id: number; readonly op: 'latency'; readonly ms: number }
  | { readonly id: number; readonly op: 'clear' }
  | { readonly id: number; readonly op: 'requests' };

export interface ChildAnswer {
  readonly id: number;
  readonly ok: boolean;
  /** The command's result, or the error message when not ok. */
  readonly result: unknown;
}

/** A recorded request without its headers (they carry the API token). */
export interface ChildRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
}
