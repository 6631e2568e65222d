/**
 * PostgreSQL plans an unnamed statement at every run: for question 1 (3.5 kB of SQL, eight
 * parts), parsing and planning take several times what running it does (bench/search.ts). A
 * statement kept prepared under a name is parsed once per session, and after its fifth run the
 * server may keep a generic plan: the lookup costs what running it costs.
 *
 * One session's names, the most recently used kept: past `capacity` the oldest is given up.
 * Names are never reused, so a name the driver still remembers cannot meet another text.
 */
export class PreparedStatements {
  readonly #names = new Map<string, string>();
  readonly #capacity: number;
  #next = 0;
  #off = false;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /**
   * The name to run `text` under (undefined once the session refused named statements), and
   * the name given up to make room, which the caller deallocates.
   */
  nameOf(text: string): { readonly name: string | undefined; readonly evicted: string | undefined } {
    if (this.#off) return { name: undefined, evicted: undefined };
    const known = this.#names.get(text);
    if (known !== undefined) {
      // Most recently used last: the Map's order is the eviction order.
      this.#names.delete(text);
      this.#names.set(text, known);
      return { name: known, evicted: undefined };
    }
    this.#next += 1;
    const name = `dus_${this.#next}`;
    this.#names.set(text, name);
    let evicted: string | undefined;
    if (this.#names.size > this.#capacity) {
      const [oldestText, oldestName] = this.#names.entries().next().value ?? [];
      if (oldestText !== undefined) this.#names.delete(oldestText);
      evicted = oldestName;
    }
    return { name, evicted };
  }

  /** The text's statement cannot be run again (its result type changed): the next run prepares it anew under another name. */
  forget(text: string): string | undefined {
    const name = this.#names.get(text);
    this.#names.delete(text);
    return name;
  }

  /** Named statements do not last on this session (a pooler hands each transaction another one): every text runs unnamed from now on. */
  turnOff(): void {
    this.#off = true;
    this.#names.clear();
  }

  get size(): number {
    return this.#names.size;
  }
}

/** SQLSTATEs that say the session does not keep what was prepared on it: invalid_sql_statement_name, duplicate_prepared_statement. */
const NOT_KEPT = new Set(['26000', '42P05']);

/** What a failed named run tells about the statement, from its SQLSTATE. */
export function preparedFailure(error: unknown): 'not-kept' | 'result-changed' | null {
  if (typeof error !== 'object' || error === null || !('code' in error) || typeof error.code !== 'string') return null;
  if (NOT_KEPT.has(error.code)) return 'not-kept';
  // feature_not_supported: "cached plan must not change result type" when a table changed under
  // a kept plan (a column's type altered by an upgrade). Told by its code, as the server may
  // speak another language; any other cause fails again when the statement is sent unnamed.
  if (error.code === '0A000') return 'result-changed';
  return null;
}
