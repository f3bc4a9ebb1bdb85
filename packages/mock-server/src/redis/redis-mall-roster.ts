// The malls in use across replicas: a sorted set of each mall's last use in real time
// (`<prefix>malls`), so the cap and the idle expiry hold for the deployment, not per replica.
// Dropping a mall is claimed with ZREM: of replicas that find the same idle or surplus mall only
// the one whose ZREM removed it drops its state (the caller's `onDrop`: data and Redis keys).
import { checkedMallLimits, type DropMall, type MallLimits, type MallRoster } from '../malls/mall-roster.js';
import type { SharedRedis } from './redis-connection.js';

/** Creates the roster over the shared connection; `now` is real time (tests pass a simulated one). */
export function redisMallRoster(
  shared: SharedRedis,
  onDrop: DropMall,
  limits: MallLimits = {},
  now: () => number = Date.now,
): MallRoster {
  const { maxMalls, idleMs } = checkedMallLimits(limits);
  const key = `${shared.prefix}malls`;
  const drop = async (mallIds: readonly string[]) => {
    for (const mallId of mallIds) {
      if ((await shared.run((client) => client.zrem(key, mallId))) === 1) await onDrop(mallId);
    }
  };
  const dropIdle = async () => {
    if (idleMs === 0) return;
    await drop(await shared.run((client) => client.zrangebyscore(key, '-inf', now() - idleMs)));
  };
  return {
    async touch(mallId) {
      // Issued together, so they leave in one write (auto-pipelining): note the use, count the
      // malls, find the idle ones.
      const [, count, idle] = await shared.run((client) =>
        Promise.all([
          client.zadd(key, now(), mallId),
          client.zcard(key),
          client.zrangebyscore(key, '-inf', idleMs === 0 ? '-inf' : now() - idleMs),
        ]),
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
