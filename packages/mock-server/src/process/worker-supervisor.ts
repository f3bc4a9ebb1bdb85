// The primary process of `mall-api-mock --workers N`: forks N workers serving the same ports
// (node:cluster shares the listening sockets) and replaces one that exits, each start logged with its
// pid, unless K crashed within T seconds (then it stops the rest and exits 1). On SIGTERM or SIGINT it
// forwards SIGTERM to every worker and exits 0 once all have exited. It serves nothing and holds no
// state; the cluster, clock and exit are arguments, so the rules are tested with a fake cluster.

/** The part of a node:cluster worker the supervisor uses. */
export interface SupervisedWorker {
  readonly id: number;
  readonly process: { readonly pid?: number | undefined; kill(signal?: NodeJS.Signals): boolean };
}

/** The part of node:cluster the supervisor uses (the primary's side). */
export interface SupervisedCluster {
  fork(): SupervisedWorker;
  on(
    event: 'exit',
    listener: (worker: SupervisedWorker, code: number | null, signal: string | null) => void,
  ): unknown;
}

/** How the supervisor runs: the worker count and its crash budget. */
export interface SupervisorOptions {
  readonly cluster: SupervisedCluster;
  readonly workers: number;
  /** Give up once this many workers crashed within {@link crashWindowMs} (default 5). */
  readonly maxCrashes?: number;
  /** The window crashes are counted in (default 60 s). */
  readonly crashWindowMs?: number;
  /** The clock (default `Date.now`). */
  readonly now?: () => number;
  /** Ends the primary with a code (default `process.exit`). */
  readonly exit?: (code: number) => void;
  /** One line about a worker's fate: started (with its pid), exited, replaced (default: none). */
  readonly say?: (message: string, fields?: Record<string, unknown>) => void;
}

/** A running supervisor. */
export interface Supervisor {
  /** Forwards SIGTERM to every worker; the primary exits 0 once they have all exited. */
  shutdown(signal: string): void;
  /** The workers alive now. */
  readonly alive: () => number;
}

/** Forks the workers and supervises them until shutdown or too many crashes. */
export function superviseWorkers(options: SupervisorOptions): Supervisor {
  const {
    cluster,
    workers: count,
    maxCrashes = 5,
    crashWindowMs = 60_000,
    now = Date.now,
    exit = (code: number) => process.exit(code),
    say = () => {},
  } = options;
  const alive = new Map<number, SupervisedWorker>();
  let crashes: number[] = [];
  let stopping: { code: number } | undefined;

  const fork = () => {
    const worker = cluster.fork();
    alive.set(worker.id, worker);
    say(`worker ${worker.id} started (pid ${worker.process.pid})`, {
      worker: worker.id,
      pid: worker.process.pid,
    });
  };
  const stopAll = (code: number) => {
    stopping = { code };
    for (const worker of alive.values()) worker.process.kill('SIGTERM');
    if (alive.size === 0) exit(code);
  };

  cluster.on('exit', (worker, code, signal) => {
    alive.delete(worker.id);
    if (stopping) {
      if (alive.size === 0) exit(stopping.code);
      return;
    }
    const at = now();
    crashes = [...crashes.filter((time) => at - time < crashWindowMs), at];
    const fields = { worker: worker.id, code, signal };
    if (crashes.length >= maxCrashes) {
      say(
        `worker ${worker.id} exited (${signal ?? `code ${code}`}); ${crashes.length} crashes within ${crashWindowMs / 1000} s: giving up`,
        fields,
      );
      stopAll(1);
      return;
    }
    say(`worker ${worker.id} exited unexpectedly (${signal ?? `code ${code}`}); starting another`, fields);
    fork();
  });
  for (let i = 0; i < count; i++) fork();

  return {
    shutdown(signal) {
      if (stopping) return;
      say(`${signal}: stopping ${alive.size} workers (requests in flight may finish)`);
      stopAll(0);
    },
    alive: () => alive.size,
  };
}
