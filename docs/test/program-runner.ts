// Test support: one interpreter process that runs program after program as written, each with its
// own environment and captured output, so a test that runs many programs pays the interpreter's
// start-up and its libraries' imports once: python3 with python-samples.py (each program as
// `__main__` in a namespace of its own), node with node-samples.mjs (each an ES module of its own).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** What one program did: its exit code and output, as a process of its own would give them. */
export interface ProgramRun {
  code: number | null;
  out: string;
  err: string;
}

/** A running interpreter that takes programs one at a time; `close` ends it. */
export interface ProgramRunner {
  run: (script: string, env: Record<string, string>) => Promise<ProgramRun>;
  close: () => Promise<void>;
}

/** The interpreters: each language's driver, and what it needs. */
const drivers = {
  python: ['python3', ['-u', join(import.meta.dirname, 'python-samples.py')]],
  node: [
    process.execPath,
    [join(import.meta.dirname, 'node-samples.mjs'), join(import.meta.dirname, '..', '..', 'node_modules')],
  ],
} as const;

/** Starts the interpreter of `language` with its driver; programs sent to `run` are run in turn. */
export function startProgramRunner(language: keyof typeof drivers): ProgramRunner {
  const [command, args] = drivers[language];
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const answers = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  let queue: Promise<unknown> = Promise.resolve();
  const runOne = async (script: string, env: Record<string, string>): Promise<ProgramRun> => {
    child.stdin.write(`${JSON.stringify({ script, env })}\n`);
    const answer = await answers.next();
    if (answer.done) throw new Error(`${command} ended before answering`);
    return JSON.parse(answer.value) as ProgramRun;
  };
  return {
    run: (script, env) => {
      const done = queue.then(() => runOne(script, env));
      queue = done.catch(() => undefined);
      return done;
    },
    close: async () => {
      child.stdin.end();
      await exited;
    },
  };
}
