#!/usr/bin/env node
// Benchmark: a large fixture loaded into a mall kept in memory, in a SQLite data directory and in
// PostgreSQL (issue #22: PostgreSQL lifecycle changes are built in time slices too). For each
// store: the load's time and the longest event-loop block of this process during it, against the
// longest block of the idle process over one second just before; then the PostgreSQL and SQLite
// load times as ratios of the memory one. The PostgreSQL server is a throwaway Debian cluster
// (packages/test-support/src/postgres-server.ts); the figures include its own work on the same machine.
// Run with: node bench/postgres-lifecycle.mjs [products] (default 20,000).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStorage } from '@mall-api/mall-state';
import { createSandboxMalls } from '@mall-api/sandbox';
import { importTypeScript } from './support/import-typescript.mjs';
import { longestBlock } from './support/longest-block.mjs';

const count = Number(process.argv[2] ?? 20_000);
const fixture = {
  products: Array.from({ length: count }, (_, i) => ({
    product_name: `Bench ${i}`,
    price: '1000.00',
    supply_price: '500.00',
  })),
};
const root = join(import.meta.dirname, '..');

/**
 * Loads the fixture into a new mall of `malls`; its time and longest block, and the idle block.
 * @param {string} label
 * @param {{ loadFixture(mallId: string, fixture: unknown): Promise<import('@mall-api/sandbox').MallOutcome> }} malls
 */
async function timeLoad(label, malls) {
  const idle = await longestBlock(() => new Promise((resolve) => setTimeout(resolve, 1_000)));
  const load = await longestBlock(() => malls.loadFixture('bench', fixture));
  if (!load.result.ok) throw new Error(`${label}: ${load.result.message}`);
  console.log(
    `${label}: ${count} products in ${load.ms.toFixed(0)} ms; longest event-loop block ${load.blockMs.toFixed(0)} ms (idle process: ${idle.blockMs.toFixed(0)} ms)`,
  );
  return load.ms;
}

const memory = await createSandboxMalls({ newMall: 'empty' });
const memoryMs = await timeLoad('memory', memory);
await memory.close();

const dataDir = await mkdtemp(join(tmpdir(), 'bench-sqlite-'));
let sqliteMs;
try {
  const sqlite = await createSandboxMalls({ newMall: 'empty', storage: await openStorage({ dataDir }) });
  sqliteMs = await timeLoad('SQLite', sqlite);
  await sqlite.close();
} finally {
  await rm(dataDir, { recursive: true, force: true });
}

const { startPostgres } = /** @type {typeof import('@mall-api/test-support/postgres-server')} */ (
  await importTypeScript(join(root, 'packages/test-support/src/postgres-server.ts'))
);
const postgres = await startPostgres();
let postgresMs;
try {
  const shared = await createSandboxMalls({
    newMall: 'empty',
    storage: await openStorage({ postgres: postgres.url }),
  });
  postgresMs = await timeLoad('PostgreSQL', shared);
  await shared.close();
} finally {
  await postgres.stop();
}
console.log(
  `load time against memory: SQLite ${(sqliteMs / memoryMs).toFixed(2)}×, PostgreSQL ${(postgresMs / memoryMs).toFixed(2)}× (PostgreSQL against SQLite ${(postgresMs / sqliteMs).toFixed(2)}×)`,
);
