#!/usr/bin/env node
// Benchmark: the admin API's write throughput (the write mix: create, rename, delete a product,
// bench/support/write-mix.mjs) with a webhook receiver registered, against the same server without
// one, in the same run. Two admin mocks (sandbox malls, rate limits off) run in their own processes,
// one delivering every event (three per cycle) to a receiver in a third process that answers 200 at
// once; rounds alternate between them. Prints each round, the ratio of the medians (target: with
// a receiver ≥ 0.8 of without) and how many events the receiver got against the writes answered
// with a receiver (one event each; past the outbox's capacity the oldest undelivered are discarded, each logged).
//   node bench/events-write-throughput.mjs [--rounds 5] [--seconds 8] [--connections 10]
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from './support/processes.mjs';
import { loadWrites, mallToken } from './support/write-mix.mjs';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '10' },
  },
});

/**
 * Starts a support script and resolves once it prints "ready …", with what follows and a stop.
 * @param {string} script
 * @param {string[]} args
 */
async function start(script, args) {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'support', script), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let text = '';
  const ready = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    child.stdout.on('data', (chunk) => {
      text += chunk;
      const line = /ready (.*)\n/.exec(text)?.[1];
      if (line) resolve(line);
    });
  });
  return {
    ready: String(ready),
    output: () => text,
    stop: () =>
      new Promise((resolve) => {
        child.removeAllListeners('exit');
        child.once('exit', () => resolve(undefined));
        child.kill('SIGTERM');
      }),
  };
}

const sinkPort = await freePort();
const sink = await start('event-sink.mjs', [String(sinkPort)]);
const without = await start('serve-events-mock.mjs', [String(await freePort())]);
const withReceiver = await start('serve-events-mock.mjs', [
  String(await freePort()),
  `http://127.0.0.1:${sinkPort}/events`,
]);
const scopes = 'mall.read_product,mall.write_product';
/** @typedef {{ name: string, url: string, token: string, rates: number[], writes: number }} Served */
/** @type {Served[]} */
const servers = [
  { name: 'without receiver', url: JSON.parse(without.ready).url, token: '', rates: [], writes: 0 },
  { name: 'with receiver', url: JSON.parse(withReceiver.ready).url, token: '', rates: [], writes: 0 },
];
try {
  for (const server of servers) server.token = await mallToken(server.url, 'benchmall', scopes);
  for (let round = 1; round <= Number(values.rounds); round++)
    for (const server of round % 2 === 1 ? servers : [...servers].reverse()) {
      const result = await loadWrites(
        server.url,
        { benchmall: server.token },
        { seconds: Number(values.seconds), connections: Number(values.connections) },
      );
      if (result.failures > 0) throw new Error(`${server.name}: ${result.failures} failed requests`);
      server.rates.push(result.requestsPerSecond);
      server.writes += result.requestsPerSecond * Number(values.seconds);
      process.stdout.write(
        `round ${round} ${server.name}: ${result.requestsPerSecond.toFixed(0)} writes/s\n`,
      );
    }
} finally {
  await Promise.all([without.stop(), withReceiver.stop()]);
  await sink.stop();
}
/** @param {number[]} values */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const [base, delivering] = servers.map((server) => median(server.rates));
process.stdout.write(
  `median without ${base?.toFixed(0)}, with ${delivering?.toFixed(0)} writes/s; ratio ${((delivering ?? 0) / (base || 1)).toFixed(2)}\n` +
    `writes with a receiver, measured rounds: about ${Math.round(servers[1]?.writes ?? 0)} (warm-ups add more); events received: ${/received (\d+)/.exec(sink.output())?.[1] ?? '?'}\n`,
);
