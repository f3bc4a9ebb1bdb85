// Benchmark support: the CPU time processes used over a stretch of time, read from Linux's
// /proc/<pid>/stat (user + system, in clock ticks of 10 ms), and this process's own from
// process.cpuUsage(), so a benchmark can say whether the server or the load generator was the
// limit. Not for other systems: where /proc is missing the server's share is undefined.
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const ticksPerSecond = 100;

/** User + system CPU seconds a process has used so far, or undefined when /proc cannot say. */
function cpuSeconds(/** @type {number} */ pid) {
  try {
    // Fields after the command name (which may hold spaces) start at the state, field 3.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return undefined;
  }
}

/**
 * Cores in use, on average, by the servers (all `pids` together) and by this process (the load
 * generator) between the call and the returned function's call.
 * @typedef {{ serverCores: number | undefined, loaderCores: number }} CpuShares
 * @param {readonly number[]} pids
 * @returns {() => CpuShares}
 */
export function cpuShares(pids) {
  const started = performance.now();
  const servers = pids.map(cpuSeconds);
  const loader = process.cpuUsage();
  return () => {
    const seconds = (performance.now() - started) / 1000;
    const used = pids.map((pid, i) => {
      const before = servers[i];
      const after = cpuSeconds(pid);
      return before === undefined || after === undefined ? undefined : after - before;
    });
    const own = process.cpuUsage(loader);
    const known = used.filter((value) => value !== undefined);
    return {
      serverCores:
        known.length === 0 || known.length < used.length
          ? undefined
          : known.reduce((sum, value) => sum + value, 0) / seconds,
      loaderCores: (own.user + own.system) / 1e6 / seconds,
    };
  };
}
