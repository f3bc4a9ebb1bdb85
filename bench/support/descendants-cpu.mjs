// Benchmark support: the CPU time of every process this one started and of theirs in turn (the
// mock processes, PostgreSQL's postmaster and its backends, redis-server), read from Linux's
// /proc/<pid>/stat — each process's user + system time plus that of the children it has waited
// for, so a PostgreSQL backend that exits mid-run still counts (in its postmaster's). This
// process itself (the load generator) is left out. Given by kind of process (mock, Redis,
// PostgreSQL), so a benchmark can say where the time went. Not for other systems: without /proc it
// says 0.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ, 100 on Linux). */
const ticksPerSecond = 100;

/** Each live process's parent, command name and CPU seconds (own and waited-for children's). */
function processes() {
  /** @type {Map<number, { parent: number, command: string, seconds: number }>} */
  const found = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // Fields after the command name (which may hold spaces) start at the state, field 3.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((i) => Number(fields[i]));
      found.set(Number(name), {
        parent: Number(fields[1]),
        command: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(') ')),
        seconds: ((utime ?? 0) + (stime ?? 0) + (cutime ?? 0) + (cstime ?? 0)) / ticksPerSecond,
      });
    } catch {
      // The process ended while the list was read.
    }
  }
  return found;
}

/**
 * CPU seconds used so far by the descendants of this process, by the kind of process: `node` (the
 * mock processes), `redis` (redis-server), `postgres` (the postmaster and its backends, whose
 * command names vary), `other`.
 * @returns {{ node: number, redis: number, postgres: number, other: number }}
 */
export function descendantsCpuByKind() {
  const all = processes();
  const kinds = { node: 0, redis: 0, postgres: 0, other: 0 };
  /** @param {number} pid @param {keyof typeof kinds | undefined} under the kind of an ancestor below this process */
  const visit = (pid, under) => {
    for (const [child, { parent, command, seconds }] of all)
      if (parent === pid) {
        const kind = under ?? kindOf(command);
        kinds[kind] += seconds;
        visit(child, kind === 'postgres' ? kind : undefined);
      }
  };
  visit(process.pid, undefined);
  return kinds;
}

/** @param {string} command @returns {'node' | 'redis' | 'postgres' | 'other'} */
const kindOf = (command) =>
  command.startsWith('node')
    ? 'node'
    : command.startsWith('redis')
      ? 'redis'
      : command.startsWith('postgres')
        ? 'postgres'
        : 'other';
