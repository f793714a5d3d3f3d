/**
 * A small in-process cache of computed answers: each key keeps its value for `ttlMs`, at most
 * `maxEntries` keys are kept (the least recently used goes first), and concurrent misses of one
 * key share a single computation. A failed computation is not kept.
 */
export class Memo<V> {
  private readonly entries = new Map<string, { expires: number; value: Promise<V> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  get(key: string, compute: () => Promise<V>): Promise<V> {
    const at = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > at) {
      // refresh its place in the LRU order
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value;
    }
    const value = compute();
    const entry = { expires: at + this.ttlMs, value };
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return value;
  }

  /** Whether `key` still keeps this very value (the one `get` gave), unexpired. */
  holds(key: string, value: Promise<V>): boolean {
    const hit = this.entries.get(key);
    return hit !== undefined && hit.value === value && hit.expires > this.now();
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
