// Specification of the file token store: the TokenStore contract across handles on one directory,
// file and directory permissions, atomic replacement (temp file + rename), what survives a crash
// mid-write, the lock file's stale-lock takeover, and the breaker every lock removal happens under.
import { link, mkdtemp, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { manualClock } from '@mall-api/rate-limit';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createFileTokenStore } from './file-token-store.js';
import { createFakeAuthority } from './testing/fake-authority.js';
import { describeTokenStoreContract, sampleTokenSet } from './testing/token-store-contract.js';
import { createTokenManager } from './token-manager.js';

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...actual,
    rename: vi.fn(actual.rename),
    link: vi.fn(actual.link),
    readFile: vi.fn(actual.readFile),
    rm: vi.fn(actual.rm),
    stat: vi.fn(actual.stat),
  };
});

const directories: string[] = [];
async function freshDirectory(): Promise<string> {
  const base = await mkdtemp(join(tmpdir(), 'mall-api-auth-'));
  directories.push(base);
  return join(base, 'tokens', 'nested');
}

/**
 * Makes every link, rename, rm, readFile and stat wait before it runs, as on a busy machine —
 * up to 1 ms, and one call in ten 10 ms (a process descheduled) — until the returned function
 * restores them.
 */
async function slowFileSystem(): Promise<() => void> {
  const actual = await vi.importActual<typeof import('node:fs/promises')>('node:fs/promises');
  const late = () => new Promise((resolve) => setTimeout(resolve, Math.random() < 0.1 ? 10 : Math.random()));
  const slowed = [
    vi.mocked(link).mockImplementation(async (...args) => late().then(() => actual.link(...args))),
    vi.mocked(rename).mockImplementation(async (...args) => late().then(() => actual.rename(...args))),
    vi.mocked(rm).mockImplementation(async (...args) => late().then(() => actual.rm(...args))),
    vi.mocked(stat).mockImplementation(async (...args) => late().then(() => actual.stat(...args))),
    vi.mocked(readFile).mockImplementation(async (...args) => late().then(() => actual.readFile(...args))),
  ];
  return () => {
    for (const mock of slowed) mock.mockReset();
  };
}

afterAll(async () => {
  const { rm } = await vi.importActual<typeof import('node:fs/promises')>('node:fs/promises');
  await Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true })));
});

describeTokenStoreContract('file token store', (clock) => {
  const directory = freshDirectory();
  return { open: async () => createFileTokenStore({ directory: await directory, clock }) };
});

describe('file token store files', () => {
  it('creates the directory with mode 0700 and each token file with mode 0600', async () => {
    const directory = await freshDirectory();
    await createFileTokenStore({ directory }).set('yourmall', sampleTokenSet());
    expect((await stat(directory)).mode & 0o777).toBe(0o700);
    expect((await stat(join(directory, 'yourmall.json'))).mode & 0o777).toBe(0o600);
  });

  it('keeps one JSON file per mall and nothing else once writes are done', async () => {
    const directory = await freshDirectory();
    const store = createFileTokenStore({ directory });
    await store.set('mall-a', sampleTokenSet());
    await store.set('mall-b', sampleTokenSet());
    await store.set('mall-a', sampleTokenSet({ accessToken: 'newer' }));
    expect((await readdir(directory)).sort()).toEqual(['mall-a.json', 'mall-b.json']);
  });

  it('replaces a token file by renaming a complete, fsynced 0600 temp file over it', async () => {
    const directory = await freshDirectory();
    const store = createFileTokenStore({ directory });
    const target = join(directory, 'yourmall.json');
    await store.set('yourmall', sampleTokenSet({ accessToken: 'old' }));
    const before = await readFile(target, 'utf8');
    const seen: Array<{
      from: string;
      to: string;
      tempComplete: boolean;
      tempMode: number;
      targetUnchanged: boolean;
    }> = [];
    const actual = await vi.importActual<typeof import('node:fs/promises')>('node:fs/promises');
    vi.mocked(rename).mockImplementationOnce(async (from, to) => {
      const temp = await actual.readFile(from, 'utf8');
      seen.push({
        from: String(from),
        to: String(to),
        tempComplete: JSON.parse(temp).accessToken === 'new',
        tempMode: (await actual.stat(from)).mode & 0o777,
        targetUnchanged: (await actual.readFile(target, 'utf8')) === before,
      });
      return actual.rename(from, to);
    });
    await store.set('yourmall', sampleTokenSet({ accessToken: 'new' }));
    expect(seen).toEqual([
      {
        from: expect.stringMatching(/\.tmp$/),
        to: target,
        tempComplete: true,
        tempMode: 0o600,
        targetUnchanged: true,
      },
    ]);
    expect((await store.get('yourmall'))?.accessToken).toBe('new');
  });

  it('never lets a concurrent reader see a partial record', async () => {
    const directory = await freshDirectory();
    const writer = createFileTokenStore({ directory });
    const reader = createFileTokenStore({ directory });
    await writer.set('yourmall', sampleTokenSet());
    let writing = true;
    let reads = 0;
    const readLoop = (async () => {
      while (writing) {
        const tokens = await reader.get('yourmall');
        expect(tokens?.scopes).toEqual(['mall.read_product', 'mall.write_product']);
        reads += 1;
      }
    })();
    for (let n = 0; n < 100; n += 1) {
      await writer.set('yourmall', sampleTokenSet({ accessToken: `access-${n}`.padEnd(2000, 'x') }));
    }
    writing = false;
    await readLoop;
    expect(reads).toBeGreaterThan(0);
  });
});

describe('file token store after a crash', () => {
  it('keeps the previous record intact when a write dies before the rename, and leaves no temp file', async () => {
    const directory = await freshDirectory();
    const store = createFileTokenStore({ directory });
    const old = sampleTokenSet({ refreshToken: 'refresh-old' });
    await store.set('yourmall', old);
    vi.mocked(rename).mockRejectedValueOnce(
      Object.assign(new Error('EIO: simulated crash'), { code: 'EIO' }),
    );
    await expect(
      store.set('yourmall', sampleTokenSet({ refreshToken: 'refresh-new' })),
    ).rejects.toMatchObject({
      code: 'store_failed',
      context: { mallId: 'yourmall', operation: 'write' },
    });
    expect(await createFileTokenStore({ directory }).get('yourmall')).toEqual(old);
    expect(await readdir(directory)).toEqual(['yourmall.json']);
  });

  it('ignores a half-written temp file left by a killed process', async () => {
    const directory = await freshDirectory();
    const store = createFileTokenStore({ directory });
    const old = sampleTokenSet();
    await store.set('yourmall', old);
    await writeFile(join(directory, '.yourmall.deadbeef.tmp'), '{"version":1,"accessToken":"ha');
    expect(await createFileTokenStore({ directory }).get('yourmall')).toEqual(old);
  });

  it('loses no tokens when a refresh succeeds but saving it crashes: the old set stays stored, and the rotated set is saved on the next call without a second refresh', async () => {
    const directory = await freshDirectory();
    const store = createFileTokenStore({ directory });
    const authority = createFakeAuthority();
    const stale = authority.issue({ accessTtlMs: -1000 });
    await store.set('yourmall', stale);
    const manager = createTokenManager({
      mallId: 'yourmall',
      store,
      refresh: (token) => authority.refresh(token),
    });

    vi.mocked(rename).mockRejectedValueOnce(
      Object.assign(new Error('EIO: simulated crash'), { code: 'EIO' }),
    );
    await expect(manager.getAccessToken()).rejects.toMatchObject({ code: 'store_failed' });
    expect(authority.refreshCount).toBe(1);
    expect(await createFileTokenStore({ directory }).get('yourmall')).toEqual(stale);

    const token = await manager.getAccessToken();
    expect(token).toBe(authority.current?.accessToken);
    expect(authority.refreshAttempts).toBe(1);
    expect((await createFileTokenStore({ directory }).get('yourmall'))?.refreshToken).toBe(
      authority.validRefreshToken,
    );
  });

  it('reports a corrupt token file as corrupt_token_record without quoting it', async () => {
    const directory = await freshDirectory();
    const store = createFileTokenStore({ directory });
    await store.set('yourmall', sampleTokenSet());
    await writeFile(
      join(directory, 'yourmall.json'),
      '{"version":1,"accessToken":"SECRET-ACCESS","refreshToken":"SECRET-RE',
    );
    const error = await store.get('yourmall').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'corrupt_token_record', context: { mallId: 'yourmall' } });
    expect(`${String(error)} ${JSON.stringify(error)}`).not.toMatch(/SECRET/);
  });
});

describe('file token store lock', () => {
  const lockRecord = (expiresAt: number) => JSON.stringify({ owner: 'dead-process', pid: 999999, expiresAt });

  /** A directory holding a token set, a simulated clock, and a way to open handles on both. */
  async function lockFixture() {
    const directory = await freshDirectory();
    const clock = manualClock(Date.now());
    const open = () => createFileTokenStore({ directory, clock });
    await open().set('yourmall', sampleTokenSet());
    return { directory, clock, open, lockFile: join(directory, 'yourmall.lock') };
  }

  it('takes over a lock whose lease has expired (its holder died) after one retry pause', async () => {
    const { directory, clock, open, lockFile } = await lockFixture();
    await writeFile(lockFile, lockRecord(clock.now() - 1));
    const started = clock.now();
    expect(await clock.run(open().withLock('yourmall', async () => 'mine', { waitMs: 60_000 }))).toBe('mine');
    expect(clock.now() - started).toBeLessThanOrEqual(30); // one pause of 20 ms + at most 50 % jitter
    expect(await readdir(directory)).toEqual(['yourmall.json']);
  });

  it('takes over an unreadable lock file once it is older than the lease', async () => {
    const { clock, open, lockFile } = await lockFixture();
    await writeFile(lockFile, '');
    const old = new Date(clock.now() - 60_000);
    await utimes(lockFile, old, old);
    const lock = open().withLock('yourmall', async () => 'mine', { waitMs: 60_000, ttlMs: 30_000 });
    expect(await clock.run(lock)).toBe('mine');
  });

  it('respects a lock whose lease is still running, and takes it once the lease is over', async () => {
    const { clock, open, lockFile } = await lockFixture();
    const expiresAt = clock.now() + 60_000;
    await writeFile(lockFile, lockRecord(expiresAt));
    const store = open();
    const timing = { waitMs: 50_000, retryDelayMs: 1_000 }; // the last pause ends by 51.5 s, before the lease
    await expect(clock.run(store.withLock('yourmall', async () => 'never', timing))).rejects.toMatchObject({
      code: 'lock_timeout',
    });
    expect(clock.now()).toBeLessThan(expiresAt);
    expect(
      await clock.run(store.withLock('yourmall', async () => clock.now(), timing)),
    ).toBeGreaterThanOrEqual(expiresAt);
  });

  it('lets exactly one of several waiters take over the same expired lock', async () => {
    const { clock, open, lockFile } = await lockFixture();
    await writeFile(lockFile, lockRecord(clock.now() - 1));
    const handles = Array.from({ length: 6 }, () => open());
    let holders = 0;
    let maxHolders = 0;
    let entries = 0;
    const all = Promise.all(
      handles.map((handle) =>
        handle.withLock(
          'yourmall',
          async () => {
            holders += 1;
            entries += 1;
            maxHolders = Math.max(maxHolders, holders);
            await clock.sleep(10);
            holders -= 1;
          },
          { waitMs: 60_000 },
        ),
      ),
    );
    await clock.run(all);
    expect(entries).toBe(6);
    expect(maxHolders).toBe(1);
  });

  it('leaves an expired lock alone while another process holds the breaker', async () => {
    const { directory, clock, open, lockFile } = await lockFixture();
    await writeFile(lockFile, lockRecord(clock.now() - 1));
    const breaker = join(directory, '.yourmall.lock.break');
    await writeFile(breaker, 'someone-breaking');
    // A breaker counts as live while its file is under 2 s old on the wall clock; dated a minute
    // ahead, it stays live however slowly a loaded machine runs the waiter's retries.
    const ahead = new Date(Date.now() + 60_000);
    await utimes(breaker, ahead, ahead);
    const lock = open().withLock('yourmall', async () => 'never', { waitMs: 1_000 });
    await expect(clock.run(lock)).rejects.toMatchObject({ code: 'lock_timeout' });
    expect(JSON.parse(await readFile(lockFile, 'utf8')).owner).toBe('dead-process');
  });

  it('clears a breaker left by a process that died mid-break once it is 2 s old, then takes the lock', async () => {
    const { directory, clock, open, lockFile } = await lockFixture();
    await writeFile(lockFile, lockRecord(clock.now() - 1));
    const breaker = join(directory, '.yourmall.lock.break');
    await writeFile(breaker, 'died-mid-break');
    const old = new Date(Date.now() - 2_100);
    await utimes(breaker, old, old);
    expect(await clock.run(open().withLock('yourmall', async () => 'mine', { waitMs: 60_000 }))).toBe('mine');
    expect(await readdir(directory)).toEqual(['yourmall.json']);
  });

  // A regression test on the real clock and real files: the breaker must make this safe in any
  // interleaving, and moving the lock aside to check it (the old way) failed here within a round.
  it('never has two holders when many acquirers in one process take over one expired lock at once', async () => {
    const restore = await slowFileSystem();
    try {
      for (let round = 0; round < 6; round += 1) {
        const directory = await freshDirectory();
        await createFileTokenStore({ directory }).set('yourmall', sampleTokenSet());
        await writeFile(join(directory, 'yourmall.lock'), lockRecord(Date.now() - 1));
        let holders = 0;
        let maxHolders = 0;
        let entries = 0;
        const outcomes = await Promise.allSettled(
          Array.from({ length: 16 }, async () => {
            await new Promise((resolve) => setTimeout(resolve, Math.random() * 4));
            return createFileTokenStore({ directory }).withLock(
              'yourmall',
              async () => {
                holders += 1;
                entries += 1;
                maxHolders = Math.max(maxHolders, holders);
                await new Promise((resolve) => setTimeout(resolve, 1));
                holders -= 1;
              },
              { waitMs: 5_000, retryDelayMs: 1 },
            );
          }),
        );
        expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
        expect({ round, entries, maxHolders }).toEqual({ round, entries: 16, maxHolders: 1 });
        expect(await readdir(directory)).toEqual(['yourmall.json']);
      }
    } finally {
      restore();
    }
  });

  it('reports lock_lost when the locked work overran its lease and someone else took the lock', async () => {
    const { directory, clock, open, lockFile } = await lockFixture();
    const [slow, other] = [open(), open()];
    let releaseOther: () => void = () => undefined;
    let otherHolds: Promise<string> = Promise.resolve('not started');
    const overrun = slow.withLock(
      'yourmall',
      async () => {
        clock.advance(41); // the work outlives its 40 ms lease …
        await new Promise<void>((entered) => {
          // … and meanwhile another process takes the expired lock over
          otherHolds = other.withLock(
            'yourmall',
            () => {
              entered();
              return new Promise<string>((resolve) => (releaseOther = () => resolve('other')));
            },
            { waitMs: 60_000, ttlMs: 10_000 },
          );
        });
      },
      { ttlMs: 40 },
    );
    await expect(clock.run(overrun)).rejects.toMatchObject({ code: 'lock_lost' });
    const kept = JSON.parse(await readFile(lockFile, 'utf8'));
    expect(kept.expiresAt).toBeGreaterThan(clock.now() + 9_000); // the other holder's lease, left alone
    releaseOther();
    expect(await otherHolds).toBe('other');
    expect(await readdir(directory)).toEqual(['yourmall.json']);
  });
});
