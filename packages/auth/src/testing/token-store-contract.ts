// Test support: the behaviour every TokenStore must show, as a vitest suite each store's test file
// runs against its own backend — round trips, isolation, mall id checks, mutual exclusion across
// handles on the same backend, lock timeouts (in simulated time), and the cross-process refresh
// race through several token managers. Not part of the public API.
import { manualClock } from '@mall-api/rate-limit';
import { describe, expect, it } from 'vitest';
import { ReauthorizationRequiredError, TokenStoreError } from '../errors.js';
import { createTokenManager } from '../token-manager.js';
import type { TokenSet } from '../token-set.js';
import type { StoreClock, TokenStore } from '../token-store.js';
import { createFakeAuthority } from './fake-authority.js';

/** How the contract gets stores: every `open()` is a separate handle on ONE shared backend. */
export interface TokenStoreBackend {
  open(): Promise<TokenStore>;
}

/** Makes a fresh backend whose handles measure time on `clock` (the real clock when omitted). */
export type TokenStoreBackendFactory = (clock?: StoreClock) => TokenStoreBackend;

/** A token set with distinct values in every field. */
export function sampleTokenSet(overrides: Partial<TokenSet> = {}): TokenSet {
  return {
    accessToken: 'access-sample',
    accessTokenExpiresAt: new Date('2030-03-01T05:00:00.000Z'),
    refreshToken: 'refresh-sample',
    refreshTokenExpiresAt: new Date('2030-03-15T03:00:00.000Z'),
    clientId: 'client-sample',
    mallId: 'yourmall',
    userId: 'test',
    scopes: ['mall.read_product', 'mall.write_product'],
    issuedAt: new Date('2030-03-01T03:00:00.000Z'),
    ...overrides,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Registers the TokenStore contract for one store implementation. */
export function describeTokenStoreContract(name: string, backend: TokenStoreBackendFactory): void {
  describe(`${name} (TokenStore contract)`, () => {
    it('answers undefined for a mall without tokens', async () => {
      const store = await backend().open();
      expect(await store.get('nobody')).toBeUndefined();
    });

    it('returns what was set, dates included, from any handle on the same backend', async () => {
      const shared = backend();
      const [writer, reader] = [await shared.open(), await shared.open()];
      const tokens = sampleTokenSet();
      await writer.set('yourmall', tokens);
      expect(await reader.get('yourmall')).toEqual(tokens);
    });

    it('replaces the previous token set on set, and forgets it on delete', async () => {
      const store = await backend().open();
      await store.set('yourmall', sampleTokenSet());
      const next = sampleTokenSet({ accessToken: 'access-2', refreshToken: 'refresh-2' });
      await store.set('yourmall', next);
      expect(await store.get('yourmall')).toEqual(next);
      await store.delete('yourmall');
      expect(await store.get('yourmall')).toBeUndefined();
      await expect(store.delete('yourmall')).resolves.toBeUndefined();
    });

    it('keeps malls apart', async () => {
      const store = await backend().open();
      await store.set('mall-a', sampleTokenSet({ mallId: 'mall-a', accessToken: 'a' }));
      await store.set('mall-b', sampleTokenSet({ mallId: 'mall-b', accessToken: 'b' }));
      expect((await store.get('mall-a'))?.accessToken).toBe('a');
      expect((await store.get('mall-b'))?.accessToken).toBe('b');
    });

    it.each(['../etc/passwd', 'a/b', '', 'x'.repeat(65), '-flag', 'mall id'])(
      'rejects the mall id %j with code invalid_mall_id on every method',
      async (mallId) => {
        const store = await backend().open();
        for (const call of [
          () => store.get(mallId),
          () => store.set(mallId, sampleTokenSet()),
          () => store.delete(mallId),
          () => store.withLock(mallId, async () => 1),
        ]) {
          await expect(call()).rejects.toMatchObject({ code: 'invalid_mall_id' });
        }
      },
    );

    it('returns the value of the locked function and rethrows its error unchanged, releasing the lock', async () => {
      const store = await backend().open();
      expect(await store.withLock('yourmall', async () => 42)).toBe(42);
      const failure = new Error('inside the lock');
      await expect(store.withLock('yourmall', async () => Promise.reject(failure))).rejects.toBe(failure);
      expect(await store.withLock('yourmall', async () => 'again', { waitMs: 500 })).toBe('again');
    });

    it('never lets two holders of one mall lock overlap, across handles', async () => {
      const shared = backend();
      const handles = await Promise.all([shared.open(), shared.open(), shared.open()]);
      let holders = 0;
      let maxHolders = 0;
      let entries = 0;
      await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          handles[index % handles.length]?.withLock('yourmall', async () => {
            holders += 1;
            entries += 1;
            maxHolders = Math.max(maxHolders, holders);
            await sleep(3);
            holders -= 1;
          }),
        ),
      );
      expect(entries).toBe(12);
      expect(maxHolders).toBe(1);
    });

    it('does not make different malls wait for each other', async () => {
      const store = await backend().open();
      const order: string[] = [];
      await store.withLock('mall-a', async () => {
        await store.withLock('mall-b', async () => order.push('b'), { waitMs: 200 });
        order.push('a');
      });
      expect(order).toEqual(['b', 'a']);
    });

    it('fails with lock_timeout once waitMs has passed on its clock while the lock is held', async () => {
      const clock = manualClock(Date.now());
      const shared = backend(clock);
      const [holder, waiter] = [await shared.open(), await shared.open()];
      let release: () => void = () => undefined;
      let held: Promise<void> = Promise.resolve();
      await new Promise<void>((entered) => {
        held = holder.withLock(
          'yourmall',
          () => {
            entered();
            return new Promise<void>((resolve) => (release = resolve));
          },
          { ttlMs: 3_600_000 }, // a lease that outlasts the wait, so it is not taken over
        );
      });
      const started = clock.now();
      const error = await clock
        .run(waiter.withLock('yourmall', async () => 'never', { waitMs: 60_000, retryDelayMs: 5_000 }))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TokenStoreError);
      expect(error).toMatchObject({ code: 'lock_timeout', context: { mallId: 'yourmall' } });
      expect(clock.now() - started).toBeGreaterThanOrEqual(60_000);
      release();
      await held;
      expect(await clock.run(waiter.withLock('yourmall', async () => 'now', { waitMs: 500 }))).toBe('now');
    });

    it('lets four managers (one per handle) with an expired token refresh exactly once and agree on the new token', async () => {
      const authority = createFakeAuthority({ refreshDelayMs: 30 });
      const shared = backend();
      const stores = await Promise.all([shared.open(), shared.open(), shared.open(), shared.open()]);
      const stale = authority.issue({ accessTtlMs: -1000 });
      await stores[0]?.set('yourmall', stale);
      const managers = stores.map((store) =>
        createTokenManager({ mallId: 'yourmall', store, refresh: (token) => authority.refresh(token) }),
      );
      const tokens = await Promise.all(
        managers.flatMap((manager) => [manager.getAccessToken(), manager.getAccessToken()]),
      );
      expect(authority.refreshAttempts).toBe(1);
      expect(authority.refreshCount).toBe(1);
      expect(new Set(tokens)).toEqual(new Set([authority.current?.accessToken]));
      expect(tokens).not.toContain(stale.accessToken);
      expect((await stores[3]?.get('yourmall'))?.refreshToken).toBe(authority.validRefreshToken);
    });

    it('lets four managers that all saw the same 401 refresh exactly once', async () => {
      const authority = createFakeAuthority({ refreshDelayMs: 10 });
      const shared = backend();
      const stores = await Promise.all([shared.open(), shared.open(), shared.open(), shared.open()]);
      const rejected = authority.issue();
      await stores[0]?.set('yourmall', rejected);
      const managers = stores.map((store) =>
        createTokenManager({ mallId: 'yourmall', store, refresh: (token) => authority.refresh(token) }),
      );
      const tokens = await Promise.all(
        managers.map((manager) => manager.refreshAfterUnauthorized(rejected.accessToken)),
      );
      expect(authority.refreshAttempts).toBe(1);
      expect(new Set(tokens)).toEqual(new Set([authority.current?.accessToken]));
    });

    it('tells every manager to re-authorize when nothing is stored', async () => {
      const store = await backend().open();
      const manager = createTokenManager({
        mallId: 'empty-mall',
        store,
        refresh: async () => Promise.reject(new Error('must not be called')),
      });
      await expect(manager.getAccessToken()).rejects.toBeInstanceOf(ReauthorizationRequiredError);
    });
  });
}
