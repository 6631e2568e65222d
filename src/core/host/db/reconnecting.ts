/**
 * A connection that is dropped (the database restarted, an administrator ended the session, a
 * network cut) must not leave a long-running `serve` failing until it is restarted: such a
 * connection is replaced at the next statement, and a statement that failed because its
 * connection went away is run once more on a new one (every statement here only reads).
 * The server dialects (PostgreSQL, MariaDB) hold their sessions here; a SQLite file has no
 * connection to lose.
 */

/** One session of a server dialect, opened again when the server has dropped it. */
export class Reconnecting<C> {
  #current: Promise<C> | null = null;
  #dead = false;
  constructor(
    private readonly connect: () => Promise<C>,
    private readonly end: (connection: C) => Promise<void>,
  ) {}

  /** The first connection, opened at once so that a wrong address fails at open time. */
  async open(): Promise<void> {
    await this.#connection();
  }

  /** Called by the driver's 'error' and 'end' events. */
  markDead(): void {
    this.#dead = true;
  }

  async run<T>(work: (connection: C) => Promise<T>): Promise<T> {
    const connection = await this.#connection();
    try {
      return await work(connection);
    } catch (error) {
      if (!this.#dead && !isConnectionLoss(error)) throw error;
      this.#dead = true;
      return work(await this.#connection());
    }
  }

  /** Work that must not run twice (a stream whose rows were partly handed over): a lost connection fails it. */
  async runOnce<T>(work: (connection: C) => Promise<T>): Promise<T> {
    const connection = await this.#connection();
    try {
      return await work(connection);
    } catch (error) {
      if (this.#dead || isConnectionLoss(error)) this.#dead = true;
      throw error;
    }
  }

  async close(): Promise<void> {
    const current = this.#current;
    this.#current = null;
    if (current !== null) await this.end(await current).catch(() => undefined);
  }

  #connection(): Promise<C> {
    if (this.#dead && this.#current !== null) {
      const old = this.#current;
      this.#current = null;
      void old.then((c) => this.end(c)).catch(() => undefined);
    }
    this.#dead = false;
    this.#current ??= this.connect().catch((error: unknown) => {
      this.#current = null;
      throw error;
    });
    return this.#current;
  }
}

/** Errors that say the connection is gone, not that the statement was wrong. */
const CONNECTION_LOSS_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'PROTOCOL_CONNECTION_LOST',
  'ER_SERVER_SHUTDOWN',
  'ER_CONNECTION_KILLED',
  // PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now, connection_failure.
  '57P01',
  '57P02',
  '57P03',
  '08006',
  '08003',
  '08000',
]);

function isConnectionLoss(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = 'code' in error && typeof error.code === 'string' ? error.code : '';
  if (CONNECTION_LOSS_CODES.has(code)) return true;
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|not queryable|closed state|connection is in closed/i.test(message);
}
