#!/usr/bin/env node
// Benchmark: the CPU one mock process spends per request journal entry on Redis — building the
// entry, the group commit's call of the record script, reading its answer, settling each caller —
// with `--concurrent N` entries recorded at once and the next N once those are committed (as N
// clients' requests waiting for their entries), on a throwaway redis-server. Measured in this
// process (`process.cpuUsage`, user + system: the socket writes and reads included, Redis's own
// work not), one build after the other in each of `--rounds` rounds; with `--compare-root DIR`
// (another checkout's root, built, e.g. the commit before a change) the same for that build: a
// before/after. What it leaves out: the HTTP side of a request and the other stores.
//   node bench/redis-journal-cpu.mjs [--entries 20000] [--concurrent 4] [--rounds 6] [--compare-root DIR]
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { startRedis } from './support/redis.mjs';

const { values } = parseArgs({
  options: {
    entries: { type: 'string', default: '20000' },
    concurrent: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '6' },
    'compare-root': { type: 'string' },
  },
});
const entries = Number(values.entries);
const concurrent = Number(values.concurrent);
const rounds = Number(values.rounds);

/** A journal entry's input: an admin GET with a query, as the mock records it. */
const input = () => ({
  receivedAtMs: Date.now(),
  api: 'admin',
  method: 'GET',
  path: '/api/v2/admin/categories',
  operationId: 'listCategories',
  query: new URLSearchParams('page=1&limit=20'),
  body: null,
  status: 200,
  answeredBy: 'answer',
  durationMs: 1.2,
});

/**
 * The Redis connection and journal of the build whose checkout is `root` (its mall-state `dist`).
 * @param {string} root
 */
async function buildOf(root) {
  const dist = join(resolve(root), 'packages/mall-state/dist');
  /** @type {any} */
  const connection = await import(pathToFileURL(join(dist, 'redis/redis-connection.js')).href);
  /** @type {any} */
  const journal = await import(pathToFileURL(join(dist, 'redis/redis-journal.js')).href);
  return { connectRedis: connection.connectRedis, redisJournal: journal.redisJournal };
}

/**
 * Records `count` entries, `concurrent` at a time; resolves once all are committed.
 * @param {{ record(mallId: string, input: object): Promise<void> }} journal
 * @param {number} count
 */
async function record(journal, count) {
  for (let i = 0; i < count; i += concurrent)
    await Promise.all(Array.from({ length: concurrent }, () => journal.record('demomall', input())));
}

/** @type {{ label: string, root: string }[]} */
const builds = [{ label: 'this build', root: join(import.meta.dirname, '..') }];
if (values['compare-root']) builds.push({ label: 'compared', root: values['compare-root'] });
const loaded = await Promise.all(
  builds.map(async ({ label, root }) => ({ label, ...(await buildOf(root)) })),
);
const redis = await startRedis();
/** @type {Map<string, number[]>} */
const micros = new Map();
try {
  for (let round = 0; round < rounds; round++)
    for (const [index, { label, connectRedis, redisJournal }] of loaded.entries()) {
      const shared = await connectRedis({ url: redis.url, prefix: `journal-cpu-${round}-${index}:` });
      try {
        const journal = redisJournal(shared);
        await record(journal, 2_000); // the script loaded, the code warm
        const before = process.cpuUsage();
        await record(journal, entries);
        const used = process.cpuUsage(before);
        micros.set(label, [...(micros.get(label) ?? []), (used.user + used.system) / entries]);
      } finally {
        await shared.close();
      }
    }
} finally {
  await redis.stop();
}
process.stdout.write(`journal entries on Redis, ${concurrent} at a time, ${entries} per round\n`);
for (const [label, each] of micros) {
  const sorted = [...each].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  process.stdout.write(
    `${label.padEnd(12)} CPU µs per entry: median ${median.toFixed(1)}  (rounds: ${each.map((m) => m.toFixed(1)).join(' ')})\n`,
  );
}
