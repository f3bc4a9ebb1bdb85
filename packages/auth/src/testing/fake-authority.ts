// Test support: an in-memory stand-in for the platform's grant bookkeeping — it issues token sets,
// rotates the refresh token on every refresh (the old one stops working, as on the platform),
// counts refreshes and can delay them to widen race windows; and a managed grant over it (a memory
// store and a token manager). Used by the token manager, store and endpoint tests; not part of the
// public API and not a mock server.
import { randomBytes } from 'node:crypto';
import { ReauthorizationRequiredError } from '../errors.js';
import { createMemoryTokenStore } from '../memory-token-store.js';
import { createTokenManager } from '../token-manager.js';
import type { TokenSet } from '../token-set.js';

/** Options of {@link createFakeAuthority}. */
export interface FakeAuthorityOptions {
  readonly mallId?: string;
  readonly clientId?: string;
  /** Default `Date.now`. */
  readonly clock?: () => number;
  /** Delay before a refresh answers. Default 0. */
  readonly refreshDelayMs?: number;
}

/** Options of {@link FakeAuthority.issue}. */
export interface IssueOptions {
  /** Access token lifetime from now; negative for an already expired one. Default 2 hours. */
  readonly accessTtlMs?: number;
  /** Refresh token lifetime from now. Default 14 days. */
  readonly refreshTtlMs?: number;
}

/** The fake grant bookkeeping. */
export interface FakeAuthority {
  /** Successful refreshes so far. */
  readonly refreshCount: number;
  /** Refresh attempts so far, successful or not. */
  readonly refreshAttempts: number;
  /** The only refresh token that currently works. */
  readonly validRefreshToken: string | undefined;
  /** The most recently issued token set. */
  readonly current: TokenSet | undefined;
  /** Starts a new grant, voiding the previous one. */
  issue(options?: IssueOptions): TokenSet;
  /** Rotates: answers a new set for the valid refresh token, `invalid_grant` for any other. */
  refresh(refreshToken: string): Promise<TokenSet>;
  /** A single-use authorization code bound to `redirectUri`. */
  createCode(redirectUri: string): string;
  /** Redeems a code once; `undefined` when unknown, used or bound to another redirect URI. */
  redeemCode(code: string, redirectUri: string): TokenSet | undefined;
}

const HOUR = 60 * 60 * 1000;

/** Creates a {@link FakeAuthority}. */
export function createFakeAuthority(options: FakeAuthorityOptions = {}): FakeAuthority {
  const clock = options.clock ?? Date.now;
  const mallId = options.mallId ?? 'yourmall';
  const clientId = options.clientId ?? 'BrIfqEKoPxeE';
  const codes = new Map<string, string>();
  let serial = 0;
  let refreshCount = 0;
  let refreshAttempts = 0;
  let current: TokenSet | undefined;

  function issue(issueOptions: IssueOptions = {}): TokenSet {
    serial += 1;
    const now = clock();
    current = {
      accessToken: `at-${serial}-${randomBytes(6).toString('hex')}`,
      accessTokenExpiresAt: new Date(now + (issueOptions.accessTtlMs ?? 2 * HOUR)),
      refreshToken: `rt-${serial}-${randomBytes(6).toString('hex')}`,
      refreshTokenExpiresAt: new Date(now + (issueOptions.refreshTtlMs ?? 14 * 24 * HOUR)),
      clientId,
      mallId,
      userId: 'test',
      scopes: ['mall.read_product', 'mall.write_product'],
      issuedAt: new Date(now),
    };
    return current;
  }

  return {
    get refreshCount() {
      return refreshCount;
    },
    get refreshAttempts() {
      return refreshAttempts;
    },
    get validRefreshToken() {
      return current?.refreshToken;
    },
    get current() {
      return current;
    },
    issue,
    async refresh(refreshToken) {
      refreshAttempts += 1;
      if (options.refreshDelayMs !== undefined)
        await new Promise((r) => setTimeout(r, options.refreshDelayMs));
      if (current === undefined || refreshToken !== current.refreshToken) {
        throw new ReauthorizationRequiredError('invalid_grant', 'fake authority: refresh token is not valid');
      }
      refreshCount += 1;
      return issue();
    },
    createCode(redirectUri) {
      const code = `code-${randomBytes(6).toString('hex')}`;
      codes.set(code, redirectUri);
      return code;
    },
    redeemCode(code, redirectUri) {
      const boundTo = codes.get(code);
      codes.delete(code);
      return boundTo === redirectUri ? issue() : undefined;
    },
  };
}

/** Options of {@link managedGrant}. */
export interface ManagedGrantOptions extends FakeAuthorityOptions {
  /** Passed to the token manager (default: its own). */
  readonly refreshAheadMs?: number | undefined;
}

/**
 * A fresh grant of mall `yourmall` kept in a memory store, and a token manager over it that
 * refreshes through the fake authority (on the authority's clock when one is given).
 */
export async function managedGrant(options: ManagedGrantOptions = {}) {
  const authority = createFakeAuthority(options);
  const store = createMemoryTokenStore();
  const initial = authority.issue();
  await store.set('yourmall', initial);
  const manager = createTokenManager({
    mallId: 'yourmall',
    store,
    refresh: (token) => authority.refresh(token),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.refreshAheadMs !== undefined ? { refreshAheadMs: options.refreshAheadMs } : {}),
  });
  return { authority, store, initial, manager };
}
