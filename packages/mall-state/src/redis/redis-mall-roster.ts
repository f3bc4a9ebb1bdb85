// The malls in use across replicas: a sorted set of each mall's last use (`<prefix>malls`), so the
// cap and the idle expiry hold for the deployment, not per replica. The last use and the idle
// cut-off are read from Redis's own clock (TIME, inside the scripts), the one clock every replica
// shares, so a replica whose clock is off neither expires malls early nor keeps them; tests may
// give a simulated clock instead. Dropping a mall is claimed with ZREM: of replicas that find the
// same idle or surplus mall only the one whose ZREM removed it drops its state (the caller's
// `onDrop`: data and Redis keys).
import type { Result } from 'ioredis';
import { checkedMallLimits, type DropMall, type MallLimits, type MallRoster } from '../malls/mall-roster.js';
import type { SharedRedis } from './redis-connection.js';

/** Sets `now` to ARGV[2] when given, else to Redis's clock in milliseconds. */
const nowOf = `
local now = tonumber(ARGV[2])
if not now then
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end`;

/**
 * KEYS: roster. ARGV: mall, now (or ''), idle milliseconds (0: none expire). Marks the mall used
 * now; gives how many malls are in use, then the malls idle that long.
 */
const touchScript = `${nowOf}
redis.call('ZADD', KEYS[1], now, ARGV[1])
local idle = {}
if tonumber(ARGV[3]) > 0 then
  idle = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[3]))
end
table.insert(idle, 1, redis.call('ZCARD', KEYS[1]))
return idle`;

/** KEYS: roster. ARGV: idle milliseconds, now (or ''). Gives the malls idle that long. */
const idleScript = `${nowOf}
return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[1]))`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** {@link touchScript}: how many malls are in use, then the idle ones. */
    mallRosterTouch(
      roster: string,
      mallId: string,
      now: string,
      idleMs: number,
    ): Result<[number, ...string[]], Context>;
    /** {@link idleScript}: the idle malls. */
    mallRosterIdle(roster: string, idleMs: number, now: string): Result<string[], Context>;
  }
}

/**
 * Creates the roster over the shared connection; `now` replaces Redis's clock (tests pass a
 * simulated one).
 */
export function redisMallRoster(
  shared: SharedRedis,
  onDrop: DropMall,
  limits: MallLimits = {},
  now?: () => number,
): MallRoster {
  const { maxMalls, idleMs } = checkedMallLimits(limits);
  const key = `${shared.prefix}malls`;
  const simulated = () => (now ? String(now()) : '');
  shared.client.defineCommand('mallRosterTouch', { numberOfKeys: 1, lua: touchScript });
  shared.client.defineCommand('mallRosterIdle', { numberOfKeys: 1, lua: idleScript });
  const drop = async (mallIds: readonly string[]) => {
    for (const mallId of mallIds) {
      if ((await shared.run((client) => client.zrem(key, mallId))) === 1) await onDrop(mallId);
    }
  };
  const dropIdle = async () => {
    if (idleMs === 0) return;
    await drop(await shared.run((client) => client.mallRosterIdle(key, idleMs, simulated())));
  };
  return {
    async touch(mallId) {
      // One script (sent by its SHA-1): note the use, count the malls, find the idle ones.
      const [count, ...idle] = await shared.run((client) =>
        client.mallRosterTouch(key, mallId, simulated(), idleMs),
      );
      await drop(idle);
      const held = count - idle.length;
      if (held > maxMalls)
        await drop(await shared.run((client) => client.zrange(key, 0, held - maxMalls - 1)));
    },
    async mallIds() {
      await dropIdle();
      return (await shared.run((client) => client.zrange(key, 0, -1))).sort();
    },
  };
}
