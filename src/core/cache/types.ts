/**
 * A shared TTL cache, the project's stand-in for the host's memory cache. In-process by
 * default; Redis when several wrapper processes must share names, the newest documents
 * and the once-a-minute rule.
 */
export interface Cache {
  get<T>(key: string): Promise<T | undefined>;
  /** Several keys in one round trip (Redis MGET), in the order given. */
  getMany<T>(keys: readonly string[]): Promise<(T | undefined)[]>;
  set<T>(key: string, value: T, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
  /**
   * Runs `produce` for `key` at most once across every process sharing the cache while its
   * result is fresh: concurrent callers wait for the one in flight and get its result.
   */
  getOrProduce<T>(key: string, ttlMs: number, produce: () => Promise<T>): Promise<T>;
  /**
   * Runs `work` while no other caller of any process sharing the cache runs work under `key`:
   * callers take turns in the order they arrive in a process. A turn held longer than `holdMs`
   * (a crashed process) is taken over.
   */
  exclusive<T>(key: string, holdMs: number, work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
