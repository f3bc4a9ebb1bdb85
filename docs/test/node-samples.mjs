// Test support: runs ES module programs one after another in this one node process, so node's
// start-up and the clients' imports are paid once, not once per program. Reads one JSON request a
// line on standard input, `{"script": ..., "env": {...}}`; puts `env` into process.env, writes the
// script as written to a file of its own in a scratch folder whose node_modules is the one given
// as the first argument (so its imports resolve as a partner project's would) and imports it, its
// standard output and error captured; answers with one JSON line `{"code": ..., "out": ..., "err": ...}`
// (`code` 0, or 1 if the module threw). The scratch folder is removed at the end of input.
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { inspect } from 'node:util';

const scratch = await mkdtemp(join(tmpdir(), 'mall-api-samples-'));
await symlink(process.argv[2] ?? '', join(scratch, 'node_modules'), 'dir');
const write = {
  out: process.stdout.write.bind(process.stdout),
  err: process.stderr.write.bind(process.stderr),
};
let count = 0;
try {
  for await (const line of createInterface({ input: process.stdin })) {
    const { script, env } = JSON.parse(line);
    Object.assign(process.env, env);
    count += 1;
    const file = join(scratch, `program-${count}.mjs`);
    await writeFile(file, script);
    const captured = { out: '', err: '' };
    /** @param {'out' | 'err'} stream */
    const capture = (stream) => (/** @type {string | Uint8Array} */ chunk) => {
      captured[stream] += String(chunk);
      return true;
    };
    process.stdout.write = capture('out');
    process.stderr.write = capture('err');
    let code = 0;
    try {
      await import(pathToFileURL(file).href);
    } catch (error) {
      captured.err += `${inspect(error)}\n`;
      code = 1;
    } finally {
      process.stdout.write = write.out;
      process.stderr.write = write.err;
    }
    write.out(`${JSON.stringify({ code, ...captured })}\n`);
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}
