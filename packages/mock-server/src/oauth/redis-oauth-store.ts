// What the mock authorization server issued, in Redis, shared by every replica: codes and refresh
// tokens under `<prefix>oauth:<kind>:<SHA-256 of the value>`, access tokens under
// `<prefix>cached:oauth-access:<SHA-256>` (the values themselves are never keys), each holding its
// grant and its expiry on its mall's clock, with a Redis TTL of its lifetime as an outer bound. A
// code is taken with GETDEL and a refresh token with DEL, so each is redeemed once across replicas.
// Reading a record loads its mall's clock first, so the authority checks expiry against a clock
// moved on any replica. Revoking a mall's grants (a reset) raises the mall's OAuth epoch
// (`<prefix>cached:oauth-epoch:<mall>`, INCR): every record carries the epoch it was issued in,
// and one from an older epoch reads as absent on every replica — one command, however many tokens
// the mall has. An access token is checked on every request and neither it nor its mall's epoch
// changes until a reset, so replicas keep copies of both that Redis invalidates
// (mall-state's read cache): a request whose token this replica has seen asks Redis nothing, and a
// reset on one replica reaches every other before its caller is told. Tokens not found are not
// kept; of those found lately, the key and the record as last parsed are remembered with the text
// they were parsed from (at most `rememberedTokens`, the oldest forgotten first), so a token sent
// again is neither hashed nor parsed again while its copy is the same text. The epoch key outlives
// every record of its mall and no more: each record written creates it (at 0) if absent and
// stretches its expiry to the record's (PEXPIRE … GT), and a reset raises only an epoch that exists
// (with no key, no record of the mall exists to revoke), so malls that come and go leave no keys
// behind. It shares mall-state's Redis connection (the one the per-mall
// stores use) and stays here, with the authority.
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
