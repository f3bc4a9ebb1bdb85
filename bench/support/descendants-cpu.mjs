// Benchmark support: the CPU time of every process this one started and of theirs in turn (the
// mock processes, PostgreSQL's postmaster and its backends, redis-server), read from Linux's
// /proc/<pid>/stat — each process's user + system time plus that of the children it has waited
// for, so a PostgreSQL backend that exits mid-run still counts (in its postmaster's). This
// process itself (the load generator) is left out. Not for other systems: without /proc it says 0.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ, 100 on Linux). */
const ticksPerSecond = 100;

/** Each live process's parent and CPU seconds (own and waited-for children's). */
function processes() {
  /** @type {Map<number, { parent: number, seconds: number }>} */
  const found = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // Fields after the command name (which may hold spaces) start at the state, field 3.
      const fields = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((i) => Number(fields[i]));
      found.set(Number(name), {
        parent: Number(fields[1]),
        seconds: ((utime ?? 0) + (stime ?? 0) + (cutime ?? 0) + (cstime ?? 0)) / ticksPerSecond,
      });
    } catch {
      // The process ended while the list was read.
    }
  }
  return found;
}

/** CPU seconds used so far by the descendants of this process. */
export function descendantsCpuSeconds() {
  const all = processes();
  let total = 0;
  const visit = (/** @type {number} */ pid) => {
    for (const [child, { parent, seconds }] of all)
      if (parent === pid) {
        total += seconds;
        visit(child);
      }
  };
  visit(process.pid);
  return total;
}
