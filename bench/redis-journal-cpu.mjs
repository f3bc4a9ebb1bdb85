#!/usr/bin/env node
// Benchmark: the CPU one mock process spends per request journal entry on Redis — building the
// entry, the group commit's call of the record script, reading its answer, settling each caller —
// with `--concurrent N` entries recorded at once and the next N once those are committed (as N
// clients' requests waiting for their entries), on a throwaway redis-server. Measured in this
// process (`process.cpuUsage`, user + system: the socket writes and reads included, Redis's own
// work not), and Redis's own CPU per entry (redis-server's /proc stat: support/descendants-cpu.mjs,
// in 10 ms ticks) and commands per entry (those its scripts run included), one build after the
// other in each of `--rounds` rounds; with `--compare-root DIR`
// (another checkout's root, built, e.g. the commit before a change) the same for that build: a
// before/after. Every entry goes to one mall, whose journal is full (10,000 entries) halfway
// through each round's first build. What it leaves out: the HTTP side of a request and the other stores.
//   node bench/redis-journal-cpu.mjs [--entries 20000] [--concurrent 4] [--rounds 6] [--compare-root DIR]
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { descendantsCpuByKind } from './support/descendants-cpu.mjs';
import { redisTotals, startRedis } from './support/redis.mjs';

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
/** Per build, per round: this process's and Redis's CPU µs and Redis's commands per entry. */
/** @type {Map<string, { micros: number, redisMicros: number, commands: number }[]>} */
const measured = new Map();
try {
  for (let round = 0; round < rounds; round++)
    for (const [index, { label, connectRedis, redisJournal }] of loaded.entries()) {
      const shared = await connectRedis({ url: redis.url, prefix: `journal-cpu-${round}-${index}:` });
      try {
        const journal = redisJournal(shared);
        await record(journal, 2_000); // the script loaded, the code warm
        const totalsBefore = await redisTotals(shared.client);
        const redisBefore = descendantsCpuByKind().redis;
        const before = process.cpuUsage();
        await record(journal, entries);
        const used = process.cpuUsage(before);
        const redisSeconds = descendantsCpuByKind().redis - redisBefore;
        const commands = (await redisTotals(shared.client)).commands - totalsBefore.commands;
        const round = {
          micros: (used.user + used.system) / entries,
          redisMicros: (redisSeconds * 1e6) / entries,
          commands: commands / entries,
        };
        measured.set(label, [...(measured.get(label) ?? []), round]);
      } finally {
        await shared.close();
      }
    }
} finally {
  await redis.stop();
}
process.stdout.write(`journal entries on Redis, ${concurrent} at a time, ${entries} per round\n`);
/** @param {number[]} each */
const median = (each) => [...each].sort((a, b) => a - b)[Math.floor(each.length / 2)] ?? 0;
for (const [label, rounds] of measured)
  for (const [what, key, digits] of /** @type {const} */ ([
    ['CPU µs per entry', 'micros', 1],
    ['Redis CPU µs per entry', 'redisMicros', 1],
    ['Redis commands per entry', 'commands', 2],
  ])) {
    const each = rounds.map((round) => round[key]);
    process.stdout.write(
      `${label.padEnd(12)} ${what}: median ${median(each).toFixed(digits)}  (rounds: ${each.map((m) => m.toFixed(digits)).join(' ')})\n`,
    );
  }
