// The malls in use across replicas: a sorted set of each mall's last use (`<prefix>malls`), so the
// cap and the idle expiry hold for the deployment, not per replica. The last use and the idle
// cut-off are read from Redis's own clock (TIME, inside the scripts), the one clock every replica
// shares, so a replica whose clock is off neither expires malls early nor keeps them; tests may
// give a simulated clock instead. Dropping a mall is claimed with ZREM: of replicas that find the
// same idle or surplus mall only the one whose ZREM removed it drops its state (the caller's
// `onDrop`: data and Redis keys).
import { checkedMallLimits, type DropMall, type MallLimits, type MallRoster } from '../malls/mall-roster.js';
import type { SharedRedis } from './redis-connection.js';

/** Sets `now` to ARGV[2] when given, else to Redis's clock in milliseconds. */
const nowOf = `
local now = tonumber(ARGV[2])
if not now then
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end`;

/** KEYS: roster. ARGV: mall, now (or ''). Marks the mall used now; gives how many malls are in use. */
const touchScript = `${nowOf}
redis.call('ZADD', KEYS[1], now, ARGV[1])
return redis.call('ZCARD', KEYS[1])`;

/** KEYS: roster. ARGV: idle milliseconds, now (or ''). Gives the malls idle that long. */
const idleScript = `${nowOf}
return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[1]))`;

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
  const drop = async (mallIds: readonly string[]) => {
    for (const mallId of mallIds) {
      if ((await shared.run((client) => client.zrem(key, mallId))) === 1) await onDrop(mallId);
    }
  };
  const dropIdle = async () => {
    if (idleMs === 0) return;
    await drop(
      (await shared.run((client) => client.eval(idleScript, 1, key, idleMs, simulated()))) as string[],
    );
  };
  return {
    async touch(mallId) {
      const held = Number(
        await shared.run((client) => client.eval(touchScript, 1, key, mallId, simulated())),
      );
      await dropIdle();
      if (held > maxMalls)
        await drop(await shared.run((client) => client.zrange(key, 0, held - maxMalls - 1)));
    },
    async mallIds() {
      await dropIdle();
      return (await shared.run((client) => client.zrange(key, 0, -1))).sort();
    },
  };
}
