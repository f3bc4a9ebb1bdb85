// What the mock authorization server issued, in Redis, shared by every replica. Codes and refresh
// tokens live under `<prefix>oauth:<kind>:<SHA-256>`, access tokens under
// `<prefix>cached:oauth-access:<SHA-256>` (never the values themselves as keys), each with its grant,
// its expiry on its mall's clock and a TTL as an outer bound; GETDEL and DEL redeem a code or a
// refresh token once across replicas. Revoking a mall (a reset) raises its OAuth epoch
// (`<prefix>cached:oauth-epoch:<mall>`, INCR): a record of an older epoch reads as absent on every
// replica, one command however many tokens the mall has. Access tokens and epochs are read through
// mall-state's read cache, which Redis invalidates, and tokens found lately are remembered with the
// text they were parsed from, so a request with a known token asks Redis nothing. Each record written
// creates its mall's epoch key if absent and stretches its expiry to the record's, and a reset raises
// only an epoch that exists, so malls that come and go leave no keys behind.
import { createHash } from 'node:crypto';
import type { MallClocks } from '@mall-api/mall-state';
import { cachedKey, type SharedRedis } from '@mall-api/mall-state/redis';
import type { ChainableCommander } from 'ioredis';
import type { CodeRecord, OAuthStore, TokenRecord } from './oauth-store.js';

/** Raises an epoch that exists (INCR keeps the key's expiry); an absent one has nothing to revoke. */
const raiseExistingEpoch = "if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('INCR', KEYS[1]) end";

/** Access tokens found whose key and record are remembered at most (a tester uses a few). */
const rememberedTokens = 1024;

/** A record as stored: with the epoch of its mall it was issued in. */
type Stored<T> = T & { epoch?: number };

/** Creates the store over the shared connection and the malls' clocks. */
export function redisOAuthStore(shared: SharedRedis, clocks: MallClocks): OAuthStore {
  const { cache } = shared;
  const hashed = (value: string) => createHash('sha256').update(value).digest('base64url');
  const key = (kind: 'code' | 'access' | 'refresh', value: string) =>
    kind === 'access'
      ? cachedKey(shared, 'oauth-access', hashed(value))
      : `${shared.prefix}oauth:${kind}:${hashed(value)}`;
  /** Milliseconds a record has left at its mall's clock (at least 1: Redis wants a positive TTL). */
  const ttl = (record: { mallId: string; expiresAt: number }) =>
    Math.max(1, Math.ceil(record.expiresAt - clocks.now(record.mallId)));
  const epochKey = (mallId: string) => cachedKey(shared, 'oauth-epoch', mallId);
  const epochOf = (mallId: string) =>
    cache.read(epochKey(mallId), () =>
      shared.run(async (client) => Number((await client.get(epochKey(mallId))) ?? 0)),
    );
  /** Queues, on `batch`, keeping the mall's epoch key alive at least as long as a record of `ttlMs`. */
  const keepEpoch = (batch: ChainableCommander, mallId: string, ttlMs: number) =>
    batch.set(epochKey(mallId), 0, 'PX', ttlMs, 'NX').pexpire(epochKey(mallId), ttlMs, 'GT');
  /** A record as stored, with the epoch of its mall it was issued in. */
  const stored = (record: object, epoch: number) => JSON.stringify({ ...record, epoch });
  /** A stored record, its mall's clock loaded; undefined when revoked since. */
  const current = async <T extends { mallId: string }>({
    epoch,
    ...record
  }: Stored<T>): Promise<T | undefined> => {
    // Each read is its own run (never one inside another), so a failure is logged once.
    const [now] = await Promise.all([epochOf(record.mallId), clocks.refresh(record.mallId)]);
    return (epoch ?? 0) < now ? undefined : (record as unknown as T);
  };
  /** The record of `text`, its mall's clock loaded; undefined when absent or revoked since. */
  const parsed = <T extends { mallId: string }>(text: string | null): Promise<T | undefined> =>
    text === null ? Promise.resolve(undefined) : current(JSON.parse(text) as Stored<T>);
  const remembered = new Map<string, { key: string; text: string; record: Stored<TokenRecord> }>();
  return {
    putCode: (code, record) =>
      shared.run(async (client) => {
        const epoch = await epochOf(record.mallId);
        const lifetime = ttl(record);
        await keepEpoch(client.multi(), record.mallId, lifetime)
          .set(key('code', code), stored(record, epoch), 'PX', lifetime)
          .exec();
      }),
    takeCode: async (code) =>
      parsed<CodeRecord>(await shared.run((client) => client.getdel(key('code', code)))),
    putTokens: (access, accessRecord, refresh, refreshRecord) =>
      shared.run(async (client) => {
        const epoch = await epochOf(accessRecord.mallId);
        const longest = Math.max(ttl(accessRecord), ttl(refreshRecord));
        await keepEpoch(client.multi(), accessRecord.mallId, longest)
          .set(key('access', access), stored(accessRecord, epoch), 'PX', ttl(accessRecord))
          .set(key('refresh', refresh), stored(refreshRecord, epoch), 'PX', ttl(refreshRecord))
          .exec();
      }),
    async accessToken(token) {
      const known = remembered.get(token);
      const access = known?.key ?? key('access', token);
      const text = await cache.read(access, () => shared.run((client) => client.get(access)));
      // A token not found is not kept: made-up tokens would crowd out the ones in use.
      if (text === null) {
        cache.forget(access);
        remembered.delete(token);
        return undefined;
      }
      if (known?.text === text) return current(known.record);
      const record = JSON.parse(text) as Stored<TokenRecord>;
      remembered.delete(token);
      if (remembered.size >= rememberedTokens) remembered.delete(remembered.keys().next().value as string);
      remembered.set(token, { key: access, text, record });
      return current(record);
    },
    refreshToken: async (token) =>
      parsed<TokenRecord>(await shared.run((client) => client.get(key('refresh', token)))),
    takeRefreshToken: (token) =>
      shared.run(async (client) => (await client.del(key('refresh', token))) === 1),
    revokeMall: (mallId) =>
      shared.run(async (client) => {
        cache.forget(epochKey(mallId));
        await client.eval(raiseExistingEpoch, 1, epochKey(mallId));
      }),
  };
}
