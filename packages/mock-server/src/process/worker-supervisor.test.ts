// The primary of `mall-api-mock --workers N` with a fake cluster and clock: it forks N workers,
// replaces one that dies unexpectedly, restarts nothing while stopping, forwards SIGTERM on
// shutdown and exits 0 once all have exited, and gives up (exit 1) after K crashes within T.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { type SupervisedWorker, superviseWorkers } from './worker-supervisor.js';

/** A cluster whose workers record the signals sent to them and die when the test says. */
function fakeCluster() {
  const events = new EventEmitter();
  const workers: (SupervisedWorker & { signals: string[] })[] = [];
  let nextId = 1;
  return {
    workers,
    cluster: {
      fork() {
        const signals: string[] = [];
        const id = nextId++;
        const worker = {
          id,
          signals,
          process: { pid: 1000 + id, kill: (signal = 'SIGTERM') => signals.push(signal) > 0 },
        };
        workers.push(worker);
        return worker;
      },
      on: (
        event: 'exit',
        listener: (worker: SupervisedWorker, code: number | null, signal: string | null) => void,
      ) => events.on(event, listener),
    },
    /** The worker exits with a code or a signal. */
    die: (worker: SupervisedWorker, code: number | null, signal: string | null = null) =>
      events.emit('exit', worker, code, signal),
  };
}

function supervise(options: { workers?: number; maxCrashes?: number; crashWindowMs?: number } = {}) {
  const fake = fakeCluster();
  let time = 0;
  const exits: number[] = [];
  const lines: string[] = [];
  const supervisor = superviseWorkers({
    cluster: fake.cluster,
    workers: options.workers ?? 2,
    ...(options.maxCrashes === undefined ? {} : { maxCrashes: options.maxCrashes }),
    ...(options.crashWindowMs === undefined ? {} : { crashWindowMs: options.crashWindowMs }),
    now: () => time,
    exit: (code) => exits.push(code),
    say: (line) => lines.push(line),
  });
  return { ...fake, supervisor, exits, lines, advance: (ms: number) => (time += ms) };
}

describe('superviseWorkers', () => {
  it('forks the number of workers asked for', () => {
    const { workers, supervisor } = supervise({ workers: 3 });
    expect(workers.map((worker) => worker.id)).toEqual([1, 2, 3]);
    expect(supervisor.alive()).toBe(3);
  });

  it('replaces a worker that dies unexpectedly, and says so', () => {
    const { workers, die, supervisor, exits, lines } = supervise();
    die(workers[0] as SupervisedWorker, null, 'SIGKILL');
    expect(workers).toHaveLength(3);
    expect(supervisor.alive()).toBe(2);
    expect(exits).toEqual([]);
    expect(lines).toEqual([
      'worker 1 started (pid 1001)',
      'worker 2 started (pid 1002)',
      'worker 1 exited unexpectedly (SIGKILL); starting another',
      'worker 3 started (pid 1003)',
    ]);
  });

  it('forwards SIGTERM to every worker on shutdown and exits 0 once all have exited, restarting none', () => {
    const { workers, die, supervisor, exits } = supervise();
    supervisor.shutdown('SIGTERM');
    expect(workers.map((worker) => worker.signals)).toEqual([['SIGTERM'], ['SIGTERM']]);
    die(workers[0] as SupervisedWorker, 0);
    expect(exits).toEqual([]);
    die(workers[1] as SupervisedWorker, 1);
    expect(workers).toHaveLength(2);
    expect(exits).toEqual([0]);
  });

  it('forwards one SIGTERM however often it is asked to stop', () => {
    const { workers, supervisor } = supervise();
    supervisor.shutdown('SIGINT');
    supervisor.shutdown('SIGTERM');
    expect(workers.map((worker) => worker.signals)).toEqual([['SIGTERM'], ['SIGTERM']]);
  });

  it('gives up after K crashes within T: stops the others and exits 1 once they have exited', () => {
    const { workers, die, exits, lines } = supervise({ maxCrashes: 3, crashWindowMs: 10_000 });
    die(workers[0] as SupervisedWorker, 1);
    die(workers[2] as SupervisedWorker, 1);
    expect(exits).toEqual([]);
    die(workers[3] as SupervisedWorker, 1);
    expect(workers).toHaveLength(4);
    expect(lines.at(-1)).toContain('3 crashes within 10 s: giving up');
    expect(workers[1]?.signals).toEqual(['SIGTERM']);
    expect(exits).toEqual([]);
    die(workers[1] as SupervisedWorker, 0);
    expect(exits).toEqual([1]);
  });

  it('counts only the crashes within the window, so occasional crashes never add up', () => {
    const { workers, die, advance, exits } = supervise({ maxCrashes: 3, crashWindowMs: 10_000 });
    for (let crash = 0; crash < 6; crash++) {
      die(workers.at(-1) as SupervisedWorker, 1);
      advance(6_000);
    }
    expect(exits).toEqual([]);
    expect(workers).toHaveLength(8);
  });
});
