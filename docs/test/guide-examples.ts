// The TypeScript examples of a guide and how the guide tests run them: each ```ts block, compiled
// to JavaScript by TypeScript's own transpiler and run by node from the docs folder (the packages
// resolved from this repository's node_modules, as a partner's project would), with the addresses
// the guide documents replaced by the test's own; and the runner of a program on standard input that
// the reference samples' test uses too.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ts from 'typescript';

/** A guide's text and its ```ts examples, numbered from 1. */
export async function guideExamples(name: string) {
  const text = await readFile(join(import.meta.dirname, '..', 'guides', `${name}.md`), 'utf8');
  const examples = [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match, index) => ({
    index: index + 1,
    source: match[1] ?? '',
  }));
  return { text, examples };
}

/** Runs `command` with `input` on its standard input; its exit code and output. */
export function runWithInput(
  command: string,
  args: readonly string[],
  input: string,
  env: Record<string, string>,
  cwd?: string,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
    child.stdin.end(input);
  });
}

/**
 * Runs one example: `replacements` (documented text → the test's) applied to the compiled script,
 * `env` added to the environment. Its exit code and output.
 */
export function runExample(
  source: string,
  replacements: Iterable<[string, string]>,
  env: Record<string, string>,
) {
  let script = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  for (const [documented, actual] of replacements) script = script.replaceAll(documented, actual);
  return runWithInput(
    process.execPath,
    ['--input-type=module', '-'],
    script,
    env,
    join(import.meta.dirname, '..'),
  );
}
