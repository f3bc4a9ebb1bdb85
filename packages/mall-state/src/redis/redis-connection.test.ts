// The shared Redis connection on a real redis-server: a command that fails while Redis is
// connected is a StoreUnavailableError logged once, however deep the `run` it failed in, with the
// cause a wrapping error carries; the journal's script goes by SHA-1 (EVALSHA), its text at most
// once.
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { JournalInput } from '../malls/journal.js';
import { StoreUnavailableError } from '../malls/store-unavailable.js';
import { useTestRedis } from '../testing/shared-redis.js';
import { connectRedis, type SharedRedis } from './redis-connection.js';
import { redisJournal } from './redis-journal.js';

const redis = useTestRedis();

/** A connection whose log lines are kept. */
async function logged(): Promise<{ shared: SharedRedis; lines: string[] }> {
  const lines: string[] = [];
  const shared = await connectRedis({
    url: redis.url(),
    prefix: redis.prefix(),
    log: (line) => lines.push(line),
  });
  return { shared, lines };
}

/** A command Redis refuses: INCR of a key that holds a list. */
async function failingCommand(shared: SharedRedis): Promise<number> {
  const key = `${shared.prefix}a-list`;
  await shared.client.rpush(key, 'x');
  return shared.client.incr(key);
}

describe('the shared Redis connection', () => {
  it('turns a refused command into a StoreUnavailableError and logs it once, from a nested run too', async () => {
    const { shared, lines } = await logged();
    try {
      const nested = shared.run(() => shared.run(() => failingCommand(shared)));
      await expect(nested).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^a shared state store \(Redis\) command failed: WRONGTYPE/);
    } finally {
      await shared.close();
    }
  });

  it('logs the cause a wrapping error carries', async () => {
    const { shared, lines } = await logged();
    try {
      const wrapped = shared.run(async () => {
        try {
          return await failingCommand(shared);
        } catch (cause) {
          throw new Error('The Redis rate-limit store could not decide.', { cause });
        }
      });
      await expect(wrapped).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(lines).toEqual([expect.stringMatching(/could not decide\. \(WRONGTYPE/)]);
    } finally {
      await shared.close();
    }
  });

  it('sends the journal script by its SHA-1 (EVALSHA), its text at most once', async () => {
    const shared = await redis.connect();
    const probe = new Redis(redis.url());
    try {
      const journal = redisJournal(shared);
      const calls = async (command: string) =>
        Number(
          new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(await probe.info('commandstats'))?.[1] ?? 0,
        );
      const before = { evalsha: await calls('evalsha'), eval: await calls('eval') };
      const input: JournalInput = {
        receivedAtMs: 0,
        api: 'admin',
        method: 'GET',
        path: '/api/v2/admin/categories',
        operationId: 'listCategories',
        query: new URLSearchParams(),
        body: null,
        status: 200,
        answeredBy: 'answer',
        durationMs: 1,
      };
      for (let i = 0; i < 5; i++) await journal.record('evalshamall', input);
      expect(await journal.entries('evalshamall')).toHaveLength(5);
      // Redis counts the answered calls: a first EVALSHA that found no script is not one.
      const sentText = (await calls('eval')) - before.eval;
      expect(sentText).toBeLessThanOrEqual(1);
      expect((await calls('evalsha')) - before.evalsha).toBe(5 - sentText);
    } finally {
      await probe.quit();
    }
  });
});
