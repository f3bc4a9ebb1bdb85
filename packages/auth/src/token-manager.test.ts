// Specification of the token manager: when it refreshes, that concurrent callers share one refresh,
// that a rotated token set is persisted before its access token is handed out, how a 401 is
// handled, and when the mall must re-authorize.
import { describe, expect, it } from 'vitest';
import { OAuthError, ReauthorizationRequiredError, TokenStoreError } from './errors.js';
import { createMemoryTokenStore } from './memory-token-store.js';
import { managedGrant } from './testing/fake-authority.js';
import { createTokenManager } from './token-manager.js';
import type { TokenSet } from './token-set.js';
import type { TokenStore } from './token-store.js';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

/** A simulated clock that tests move by hand. */
function simulatedClock(start = Date.parse('2030-03-01T03:00:00.000Z')) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

/** A fresh grant in a memory store, under a simulated clock. */
async function setup(options: { refreshDelayMs?: number; refreshAheadMs?: number } = {}) {
  const clock = simulatedClock();
  return { clock, ...(await managedGrant({ ...options, clock: clock.now })) };
}

/** Wraps a store so a test can observe or sabotage its writes. */
function observedStore(inner: TokenStore, onSet: (tokens: TokenSet) => Promise<void>): TokenStore {
  return {
    get: (mallId) => inner.get(mallId),
    set: async (mallId, tokens) => {
      await onSet(tokens);
      await inner.set(mallId, tokens);
    },
    delete: (mallId) => inner.delete(mallId),
    withLock: (mallId, fn, options) => inner.withLock(mallId, fn, options),
  };
}

describe('getAccessToken', () => {
  it('hands out the stored access token while it is fresh, without refreshing', async () => {
    const { manager, authority, initial } = await setup();
    expect(await manager.getAccessToken()).toBe(initial.accessToken);
    expect(await manager.getAccessToken()).toBe(initial.accessToken);
    expect(authority.refreshAttempts).toBe(0);
  });

  it('refreshes once the token is within 5 minutes of expiry, not before', async () => {
    const { manager, authority, clock, initial } = await setup();
    clock.advance(2 * HOUR - 5 * MINUTE - 1);
    expect(await manager.getAccessToken()).toBe(initial.accessToken);
    clock.advance(1);
    const refreshed = await manager.getAccessToken();
    expect(refreshed).not.toBe(initial.accessToken);
    expect(refreshed).toBe(authority.current?.accessToken);
    expect(authority.refreshCount).toBe(1);
  });

  it('honours a custom refreshAheadMs', async () => {
    const { manager, authority, clock } = await setup({ refreshAheadMs: 30 * MINUTE });
    clock.advance(90 * MINUTE);
    await manager.getAccessToken();
    expect(authority.refreshCount).toBe(1);
  });

  it('refreshes exactly once for 50 concurrent callers with an expired token, and all get the new token', async () => {
    const { manager, authority, clock, store } = await setup({ refreshDelayMs: 20 });
    clock.advance(3 * HOUR);
    const tokens = await Promise.all(Array.from({ length: 50 }, () => manager.getAccessToken()));
    expect(authority.refreshAttempts).toBe(1);
    expect(new Set(tokens)).toEqual(new Set([authority.current?.accessToken]));
    expect((await store.get('yourmall'))?.refreshToken).toBe(authority.validRefreshToken);
  });

  it('shares one in-flight refresh within the process: the store lock is taken once for 50 callers', async () => {
    const { authority, clock, initial } = await setup({ refreshDelayMs: 20 });
    const inner = createMemoryTokenStore();
    await inner.set('yourmall', initial);
    let locks = 0;
    const store: TokenStore = {
      ...inner,
      withLock: (mallId, fn, options) => {
        locks += 1;
        return inner.withLock(mallId, fn, options);
      },
    };
    const manager = createTokenManager({
      mallId: 'yourmall',
      store,
      refresh: (token) => authority.refresh(token),
      clock: clock.now,
    });
    clock.advance(3 * HOUR);
    await Promise.all(Array.from({ length: 50 }, () => manager.getAccessToken()));
    expect(locks).toBe(1);
    expect(authority.refreshAttempts).toBe(1);
  });

  it('keeps using the refreshed token afterwards without touching the authority again', async () => {
    const { manager, authority, clock } = await setup();
    clock.advance(3 * HOUR);
    const first = await manager.getAccessToken();
    clock.advance(HOUR);
    expect(await manager.getAccessToken()).toBe(first);
    expect(authority.refreshAttempts).toBe(1);
  });

  it('picks up a token another process already stored instead of refreshing', async () => {
    const { manager, authority, clock, store } = await setup();
    clock.advance(3 * HOUR);
    const elsewhere = await authority.refresh(authority.validRefreshToken ?? '');
    await store.set('yourmall', elsewhere);
    expect(await manager.getAccessToken()).toBe(elsewhere.accessToken);
    expect(authority.refreshAttempts).toBe(1);
  });
});

describe('persisting before handing out', () => {
  it('has the new refresh token in the store before getAccessToken resolves', async () => {
    const { authority, clock, initial } = await setup();
    const inner = createMemoryTokenStore();
    await inner.set('yourmall', initial);
    const events: string[] = [];
    const store = observedStore(inner, async (tokens) => {
      events.push(`refreshed:${tokens.refreshToken === authority.validRefreshToken}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
    const manager = createTokenManager({
      mallId: 'yourmall',
      store,
      refresh: (token) => authority.refresh(token),
      clock: clock.now,
    });
    clock.advance(3 * HOUR);
    const token = await manager.getAccessToken().then(async (value) => {
      events.push(
        `resolved; stored refresh token current: ${(await inner.get('yourmall'))?.refreshToken === authority.validRefreshToken}`,
      );
      return value;
    });
    expect(events).toEqual(['refreshed:true', 'resolved; stored refresh token current: true']);
    expect(token).toBe(authority.current?.accessToken);
  });

  it('hands out no access token when the store cannot save the rotated set, and keeps the old set stored', async () => {
    const { authority, clock, initial } = await setup();
    const inner = createMemoryTokenStore();
    await inner.set('yourmall', initial);
    const failure = new TokenStoreError('store_failed', 'disk full');
    let failWrites = true;
    const store = observedStore(inner, async () => {
      if (failWrites) throw failure;
    });
    const manager = createTokenManager({
      mallId: 'yourmall',
      store,
      refresh: (token) => authority.refresh(token),
      clock: clock.now,
    });
    clock.advance(3 * HOUR);
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => manager.getAccessToken()));
    expect(results.every((result) => result.status === 'rejected' && result.reason === failure)).toBe(true);
    expect(await inner.get('yourmall')).toEqual(initial);

    // Once the store works again, the already rotated set is saved — not refreshed a second time,
    // which would fail because the stored refresh token has been spent.
    failWrites = false;
    const token = await manager.getAccessToken();
    expect(token).toBe(authority.current?.accessToken);
    expect(authority.refreshAttempts).toBe(1);
    expect((await inner.get('yourmall'))?.refreshToken).toBe(authority.validRefreshToken);
  });
});

describe('after a 401', () => {
  it('refreshes once however many callers report the same rejected token', async () => {
    const { manager, authority, initial } = await setup({ refreshDelayMs: 10 });
    await manager.getAccessToken();
    const tokens = await Promise.all(
      Array.from({ length: 10 }, () => manager.refreshAfterUnauthorized(initial.accessToken)),
    );
    expect(authority.refreshAttempts).toBe(1);
    expect(new Set(tokens)).toEqual(new Set([authority.current?.accessToken]));
  });

  it('just returns the current token when the rejected one was already replaced', async () => {
    const { manager, authority, initial } = await setup();
    await manager.getAccessToken();
    const replacement = await manager.refreshAfterUnauthorized(initial.accessToken);
    expect(await manager.refreshAfterUnauthorized(initial.accessToken)).toBe(replacement);
    expect(authority.refreshAttempts).toBe(1);
  });

  it('refreshes again when the replacement is rejected too', async () => {
    const { manager, authority, initial } = await setup();
    const second = await manager.refreshAfterUnauthorized(initial.accessToken);
    const third = await manager.refreshAfterUnauthorized(second);
    expect(new Set([initial.accessToken, second, third]).size).toBe(3);
    expect(authority.refreshAttempts).toBe(2);
  });

  it('makes the next getAccessToken replace a token marked with invalidate', async () => {
    const { manager, authority, initial } = await setup();
    manager.invalidate(initial.accessToken);
    expect(await manager.getAccessToken()).toBe(authority.current?.accessToken);
    expect(authority.refreshAttempts).toBe(1);
  });
});

describe('when the grant is gone', () => {
  it('asks for re-authorization when no tokens are stored, without calling refresh', async () => {
    let calls = 0;
    const manager = createTokenManager({
      mallId: 'yourmall',
      store: createMemoryTokenStore(),
      refresh: async () => {
        calls += 1;
        throw new Error('unreachable');
      },
    });
    const error = await manager.getAccessToken().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReauthorizationRequiredError);
    expect(error).toMatchObject({ code: 'reauthorization_required', reason: 'no_tokens' });
    expect(calls).toBe(0);
  });

  it('asks for re-authorization once the refresh token has expired, without calling refresh', async () => {
    const { manager, authority, clock } = await setup();
    clock.advance(14 * 24 * HOUR);
    await expect(manager.getAccessToken()).rejects.toMatchObject({
      code: 'reauthorization_required',
      reason: 'refresh_token_expired',
    });
    expect(authority.refreshAttempts).toBe(0);
  });

  it('passes invalid_grant on as re-authorization required and leaves the stored tokens alone', async () => {
    const { manager, authority, clock, store, initial } = await setup();
    authority.issue(); // the grant was renewed elsewhere: our refresh token is void
    clock.advance(3 * HOUR);
    await expect(manager.getAccessToken()).rejects.toMatchObject({ reason: 'invalid_grant' });
    expect(await store.get('yourmall')).toEqual(initial);
  });

  it('passes other refresh failures on and tries again on the next call', async () => {
    const { authority, clock, store } = await setup();
    let failNext = true;
    const manager = createTokenManager({
      mallId: 'yourmall',
      store,
      clock: clock.now,
      refresh: async (token) => {
        if (failNext) {
          failNext = false;
          throw new OAuthError('token_endpoint_unreachable', 'down');
        }
        return authority.refresh(token);
      },
    });
    clock.advance(3 * HOUR);
    await expect(manager.getAccessToken()).rejects.toMatchObject({ code: 'token_endpoint_unreachable' });
    expect(await manager.getAccessToken()).toBe(authority.current?.accessToken);
  });

  it('never puts a token into its errors', async () => {
    const { manager, clock, initial } = await setup();
    clock.advance(15 * 24 * HOUR);
    const error = await manager.getAccessToken().catch((e: unknown) => e);
    for (const rendering of [String(error), JSON.stringify(error)]) {
      expect(rendering).not.toContain(initial.refreshToken);
      expect(rendering).not.toContain(initial.accessToken);
    }
  });
});
