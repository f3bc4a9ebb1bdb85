// Where the mock authorization server keeps what it issued: single-use codes, access tokens and
// rotating refresh tokens, each with its grant and its expiry on its mall's clock. The one async
// interface the authority decides over, and the store in this process's memory (expired records
// swept when tokens are issued); redis-oauth-store.ts is the one replicas share. Both take a code or
// a refresh token out atomically, so one redemption succeeds, and revoke a mall's grants at once.
import type { PkceChallenge } from './pkce.js';

/** Who an access token speaks for. */
export interface Grant {
  readonly clientId: string;
  readonly mallId: string;
  readonly userId: string;
  readonly scopes: readonly string[];
}

/** An authorization code as stored. */
export interface CodeRecord extends Grant {
  readonly redirectUri: string;
  /** On the mall's clock, epoch milliseconds. */
  readonly expiresAt: number;
  /** The PKCE challenge of the authorization request, when it sent one. */
  readonly pkce?: PkceChallenge | undefined;
}

/** An access or refresh token as stored. */
export interface TokenRecord extends Grant {
  /** On the mall's clock, epoch milliseconds. */
  readonly expiresAt: number;
}

/** What the authority stores; records are returned as stored, expired or not (it checks). */
export interface OAuthStore {
  putCode(code: string, record: CodeRecord): Promise<void>;
  /** Takes a code out: its record for the one caller that takes it, undefined for any other. */
  takeCode(code: string): Promise<CodeRecord | undefined>;
  putTokens(
    access: string,
    accessRecord: TokenRecord,
    refresh: string,
    refreshRecord: TokenRecord,
  ): Promise<void>;
  accessToken(token: string): Promise<TokenRecord | undefined>;
  refreshToken(token: string): Promise<TokenRecord | undefined>;
  /** Takes a refresh token out: true for the one caller that takes it. */
  takeRefreshToken(token: string): Promise<boolean>;
  /** Revokes every code, access token and refresh token issued for a mall so far. */
  revokeMall(mallId: string): Promise<void>;
}

/** The store in this process's memory; `clock` is the time at a mall, for sweeping expired records. */
export function memoryOAuthStore(clock: (mallId: string) => number): OAuthStore {
  const codes = new Map<string, CodeRecord>();
  const accessTokens = new Map<string, TokenRecord>();
  const refreshTokens = new Map<string, TokenRecord>();
  const sweep = () => {
    for (const store of [codes, accessTokens, refreshTokens]) {
      for (const [key, record] of store) if (record.expiresAt <= clock(record.mallId)) store.delete(key);
    }
  };
  return {
    putCode: async (code, record) => void codes.set(code, record),
    async takeCode(code) {
      const record = codes.get(code);
      codes.delete(code);
      return record;
    },
    async putTokens(access, accessRecord, refresh, refreshRecord) {
      sweep();
      accessTokens.set(access, accessRecord);
      refreshTokens.set(refresh, refreshRecord);
    },
    accessToken: async (token) => accessTokens.get(token),
    refreshToken: async (token) => refreshTokens.get(token),
    takeRefreshToken: async (token) => refreshTokens.delete(token),
    async revokeMall(mallId) {
      for (const store of [codes, accessTokens, refreshTokens]) {
        for (const [key, record] of store) if (record.mallId === mallId) store.delete(key);
      }
    },
  };
}
