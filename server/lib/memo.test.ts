import { describe, expect, it, vi } from 'vitest';
import { Memo } from './memo';

describe('Memo', () => {
  it('computes a key once while it is fresh, and again after ttl', async () => {
    let now = 0;
    const memo = new Memo<number>(1000, 10, () => now);
    const compute = vi.fn(async () => now);
    expect(await memo.get('a', compute)).toBe(0);
    now = 999;
    expect(await memo.get('a', compute)).toBe(0);
    now = 1000;
    expect(await memo.get('a', compute)).toBe(1000);
    expect(compute).toHaveBeenCalledTimes(2);
  });

  it('shares one computation between concurrent callers', async () => {
    const memo = new Memo<string>(1000, 10);
    let release!: (v: string) => void;
    const compute = vi.fn(() => new Promise<string>((r) => (release = r)));
    const both = Promise.all([memo.get('k', compute), memo.get('k', compute)]);
    release('x');
    expect(await both).toEqual(['x', 'x']);
    expect(compute).toHaveBeenCalledTimes(1);
  });

  it('does not keep a failure', async () => {
    const memo = new Memo<string>(1000, 10);
    await expect(memo.get('k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await memo.get('k', async () => 'up')).toBe('up');
  });

  it('keeps at most maxEntries keys, dropping the least recently used', async () => {
    const memo = new Memo<string>(1000, 2);
    await memo.get('a', async () => 'a');
    await memo.get('b', async () => 'b');
    await memo.get('a', async () => 'a2'); // a is now the most recent
    await memo.get('c', async () => 'c');
    expect(memo.size).toBe(2);
    expect(await memo.get('a', async () => 'a3')).toBe('a');
    expect(await memo.get('b', async () => 'b2')).toBe('b2');
  });

  it('holds a value only while it is the unexpired, unforgotten value of its key', async () => {
    let now = 0;
    const memo = new Memo<string>(1000, 10, () => now);
    const first = memo.get('k', async () => 'v1');
    expect(memo.holds('k', first)).toBe(true);
    expect(memo.holds('other', first)).toBe(false);
    now = 1000;
    expect(memo.holds('k', first)).toBe(false);
    const second = memo.get('k', async () => 'v2');
    expect(memo.holds('k', second)).toBe(true);
    expect(memo.holds('k', first)).toBe(false);
    memo.clear();
    expect(memo.holds('k', second)).toBe(false);
  });
});
