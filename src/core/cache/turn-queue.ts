/**
 * Per key, runs work one after another in arrival order within this process. Each piece of
 * work starts when the one before it has settled, whether it succeeded or threw.
 */
export class TurnQueue {
  readonly #last = new Map<string, Promise<void>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const result = (this.#last.get(key) ?? Promise.resolve()).then(work);
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    this.#last.set(key, settled);
    try {
      return await result;
    } finally {
      if (this.#last.get(key) === settled) this.#last.delete(key);
    }
  }
}
