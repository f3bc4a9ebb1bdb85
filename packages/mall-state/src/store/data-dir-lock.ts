// One sandbox process per data directory: each keeps the whole store in memory and writes it
// through to SQLite, so two processes on one directory would each serve a stale copy and overwrite
// the other's rows. The first takes `<dataDir>/sandbox.lock` (created exclusively, holding its
// pid) and removes it on close; a second is refused with a message naming the holder, and so is a
// second sandbox on the same directory in this process. A lock left by a process that no longer
// runs (killed, say; or one that had this pid in an earlier container) is taken over.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The directories this process holds. */
const heldHere = new Set<string>();

/** Whether a process with this pid is running (on this machine). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the lock of `dataDir` for this process; throws if another running process holds it.
 * @returns a function that releases it.
 */
export function lockDataDir(dataDir: string): () => void {
  const path = join(dataDir, 'sandbox.lock');
  if (heldHere.has(path))
    throw new Error(`the sandbox data directory ${dataDir} is already open in this process`);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, String(process.pid), { flag: 'wx' });
      heldHere.add(path);
      return () => {
        heldHere.delete(path);
        rmSync(path, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(path, 'utf8'));
      if (Number.isInteger(holder) && holder !== process.pid && isRunning(holder))
        throw new Error(
          `the sandbox data directory ${dataDir} is in use by process ${holder}; stop it or choose another --data-dir`,
        );
      rmSync(path, { force: true });
    }
  }
  throw new Error(`could not lock the sandbox data directory ${dataDir}`);
}
