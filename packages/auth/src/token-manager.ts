// Keeps one mall's access token usable: hands out the current token, refreshes it shortly before it
// expires or after the API rejected it with 401, and makes sure the platform's refresh-token
// rotation never loses the grant. Within a process concurrent callers share one refresh
// (single-flight); across processes the store's lock serialises refreshes, and the holder re-reads
// the store inside the lock and refreshes only if the stored token is still the stale one. The new
// token set is persisted BEFORE its access token is handed out. Not an HTTP client and not a
// store: it takes the refresh function, the store and the clock as arguments.
import { ReauthorizationRequiredError } from './errors.js';
import type { TokenSet } from './token-set.js';
import type { LockOptions, TokenStore } from './token-store.js';

/** Milliseconds since the Unix epoch; `Date.now` in production, a simulated clock in tests. */
export type Clock = () => number;

/** Options of {@link createTokenManager}. */
export interface TokenManagerOptions {
  /** The mall whose tokens are managed (the store key). */
  readonly mallId: string;
  /** Where the token set lives; shared with other processes for the file and Redis stores. */
  readonly store: TokenStore;
  /**
   * Trades a refresh token for a new token set, e.g.
   * `(token) => refreshToken({ mallBaseUrl, clientId, clientSecret, refreshToken: token })`.
   */
  readonly refresh: (refreshToken: string) => Promise<TokenSet>;
  /** Default `Date.now`. */
  readonly clock?: Clock;
  /** Refresh when the access token expires within this many ms. Default 5 minutes. */
  readonly refreshAheadMs?: number;
  /** Lock timings for the cross-process refresh; see {@link LockOptions}. */
  readonly lock?: LockOptions;
}

/** Hands out a usable access token for one mall. */
export interface TokenManager {
  /**
   * A usable access token: the cached one while it is not within `refreshAheadMs` of expiry,
   * otherwise a refreshed (and already persisted) one.
   *
   * @throws {ReauthorizationRequiredError} when no tokens are stored, the refresh token has
   *   expired, or the token endpoint answered `invalid_grant`.
   * @throws {OAuthError} or `TokenStoreError` when the refresh or persisting it failed; no
   *   token is handed out then.
   */
  getAccessToken(): Promise<string>;
  /**
   * Marks an access token the API rejected (401) as unusable; the next `getAccessToken`
   * replaces it, unless it has already been replaced.
   */
  invalidate(rejectedAccessToken: string): void;
  /**
   * After a 401 for `rejectedAccessToken`: returns a different, usable access token — the one
   * another caller or process already obtained, or else a freshly refreshed one. Refreshes at most
   * once per rejected token, however many callers report it.
   */
  refreshAfterUnauthorized(rejectedAccessToken: string): Promise<string>;
}

const DEFAULT_REFRESH_AHEAD_MS = 5 * 60 * 1000;
const MAX_REMEMBERED_REJECTIONS = 16;

interface PendingTokens {
  /** The refresh token that was traded for `tokens`. */
  readonly refreshedFrom: string;
  readonly tokens: TokenSet;
}

/** Creates a {@link TokenManager} for one mall. */
export function createTokenManager(options: TokenManagerOptions): TokenManager {
  const { mallId, store, refresh } = options;
  const clock = options.clock ?? Date.now;
  const refreshAheadMs = options.refreshAheadMs ?? DEFAULT_REFRESH_AHEAD_MS;

  let cached: TokenSet | undefined;
  /** Access tokens the API rejected with 401 (the most recent few). */
  const rejected = new Set<string>();
  /** A refreshed set whose persisting failed; persisted (not refreshed again) on the next try. */
  let pending: PendingTokens | undefined;
  let inFlight: Promise<string> | undefined;

  /** Not rejected and not within `refreshAheadMs` of expiry. */
  const usable = (tokens: TokenSet): boolean =>
    !rejected.has(tokens.accessToken) && clock() < tokens.accessTokenExpiresAt.getTime() - refreshAheadMs;

  /** Inside the lock: re-read, and refresh only if the stored token is still not usable. */
  async function refreshUnderLock(): Promise<string> {
    const stored = await store.get(mallId);
    if (stored !== undefined && usable(stored)) {
      cached = stored; // another process refreshed while we waited for the lock
      return stored.accessToken;
    }
    if (stored === undefined) {
      throw new ReauthorizationRequiredError(
        'no_tokens',
        `no tokens are stored for mall ${mallId}; authorize the app`,
        {
          context: { mallId },
        },
      );
    }
    let next: TokenSet;
    if (pending !== undefined && pending.refreshedFrom === stored.refreshToken) {
      next = pending.tokens; // we already spent the stored refresh token; retry persisting its result
    } else {
      pending = undefined;
      if (clock() >= stored.refreshTokenExpiresAt.getTime()) {
        throw new ReauthorizationRequiredError(
          'refresh_token_expired',
          `the refresh token of mall ${mallId} has expired; authorize the app again`,
          { context: { mallId, refreshTokenExpiredAt: stored.refreshTokenExpiresAt.toISOString() } },
        );
      }
      next = await refresh(stored.refreshToken);
      pending = { refreshedFrom: stored.refreshToken, tokens: next };
    }
    await store.set(mallId, next); // throws if not persisted: the token is not handed out
    pending = undefined;
    cached = next;
    return next.accessToken;
  }

  /** One refresh attempt shared by every concurrent caller in this process. */
  function sharedRefresh(): Promise<string> {
    inFlight ??= (async () => {
      // Cheap check first: another process may already have stored a usable token.
      const stored = await store.get(mallId);
      if (stored !== undefined && usable(stored)) {
        cached = stored;
        return stored.accessToken;
      }
      return store.withLock(mallId, refreshUnderLock, options.lock);
    })().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  }

  async function getAccessToken(): Promise<string> {
    if (cached !== undefined && usable(cached)) return cached.accessToken;
    return sharedRefresh();
  }

  function invalidate(rejectedAccessToken: string): void {
    rejected.add(rejectedAccessToken);
    for (const oldest of rejected) {
      if (rejected.size <= MAX_REMEMBERED_REJECTIONS) break;
      rejected.delete(oldest);
    }
  }

  async function refreshAfterUnauthorized(rejectedAccessToken: string): Promise<string> {
    invalidate(rejectedAccessToken);
    if (cached !== undefined && usable(cached)) return cached.accessToken; // already replaced by another caller
    const token = await sharedRefresh();
    // A refresh that started before the 401 was reported may have settled on the rejected token;
    // one more round sees it as rejected. Never more: the caller gets at most one retry anyway.
    return token === rejectedAccessToken ? sharedRefresh() : token;
  }

  return { getAccessToken, invalidate, refreshAfterUnauthorized };
}
