// Every TypeScript (our clients), curl, Python (requests) and PHP (ext-curl) sample of the
// references, run as written by node (the TypeScript compiled to JavaScript by TypeScript's own
// transpiler, the packages resolved from this repository's node_modules as a partner's project
// would), bash/curl, python3 and php with only the mock's port changed (node and python3 started
// once per API and language, running its samples in turn, each a module of its own, so their
// start-up and the clients' and `requests`' imports are paid once), gets a success from the default
// sandbox mocks (`npm start`'s stateful malls, seed 1): the mock's own request log shows a 2xx for
// each request the sample sends (302 for the OAuth authorize step), and the sample prints the
// answer (the TypeScript authorize sample sends nothing: it prints the authorize URL). The three
// APIs' samples run side by side, each API's one at a time. The environment carries what the samples read from it: a fresh access token (a fresh
// sandbox mall of its own per sample, as a reader's first try would meet it), an authorization code
// and a refresh token of the demo app.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { demoOAuthClient, issueDemoTokens, startMockServers } from '@mall-api/mock-server';
import { type ApiName, loadSpecSync, mallParameterOf } from '@mall-api/spec-model';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeSamplesOf, demoOAuthSample, mockUrlOf } from '../build/code-samples.mjs';
import { runWithInput } from './guide-examples.js';
import { laneQueue } from './lanes.js';
import { type ProgramRun, type ProgramRunner, startProgramRunner } from './program-runner.js';

const docsRoot = join(import.meta.dirname, '..');
const apiNames = (
  JSON.parse(await readFile(join(docsRoot, 'src', 'apis.json'), 'utf8')) as { name: ApiName }[]
).map((api) => api.name);
const models = new Map(apiNames.map((name) => [name, loadSpecSync(name)]));
const model = (name: ApiName) => models.get(name) ?? loadSpecSync(name);
const samples = new Map(apiNames.map((name) => [name, codeSamplesOf(name, model(name))]));

/** A program's standard output, or an error naming how it ended if it did not exit 0. */
async function outputOf(language: string, ran: Promise<ProgramRun>): Promise<string> {
  const { code, out, err } = await ran;
  if (code !== 0) throw new Error(`the ${language} sample exited ${code}: ${err.slice(0, 500)}`);
  return out;
}

/**
 * How each language's sample is run: the TypeScript (as JavaScript) and Python samples of an API
 * by one node or python3 that runs them in turn, each as written (program-runner.ts); the curl
 * and PHP ones by bash and php reading the program from standard input.
 */
const interpreters = {
  typescript: { runner: 'node' },
  curl: { command: 'bash', args: ['-s'] },
  python: { runner: 'python' },
  php: { command: 'php', args: [] },
} as const;
type Language = keyof typeof interpreters;

/** What runs a language's samples, one after another. */
const runnerOf = (language: Language): ProgramRunner => {
  const how = interpreters[language];
  return 'runner' in how
    ? startProgramRunner(how.runner)
    : { run: (script, env) => runWithInput(how.command, how.args, script, env), close: async () => {} };
};

/** The program a sample runs as: TypeScript compiled to JavaScript (types dropped), others as written. */
const program = (language: Language, source: string) =>
  language === 'typescript'
    ? ts.transpileModule(source, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      }).outputText
    : source;

describe('the TypeScript, curl, Python and PHP samples', () => {
  const log: string[] = [];
  let served: Awaited<ReturnType<typeof startMockServers>>;
  beforeAll(async () => {
    served = await startMockServers({
      ports: { collection: 0, admin: 0, analytics: 0 },
      sandbox: { seed: 1 },
      log: (line) => log.push(line),
    });
  });
  afterAll(async () => {
    await served?.close();
  });

  /** A fresh single-use authorization code of the demo app. */
  const authorizationCode = async () => {
    const outcome = await served.authority.authorize({
      mallId: 'demomall',
      responseType: 'code',
      clientId: demoOAuthClient.clientId,
      redirectUri: demoOAuthSample.redirectUri,
      scope: served.oauth.scopes.join(','),
      state: 'samples',
    });
    if (!outcome.ok) throw new Error(outcome.failure.description);
    return new URL(outcome.location).searchParams.get('code') ?? '';
  };

  /**
   * Runs every sample of `name` in `language` against the mock, one after another, each as written
   * with a fresh mall of its own; resolves to the samples that did not get a success.
   */
  async function runSamples(name: ApiName, language: Language): Promise<string[]> {
    const mock = served.mocks.find((entry) => entry.api === name);
    if (!mock) throw new Error(`no ${name} mock`);
    const sampleBase = mockUrlOf(model(name).document);
    const port = new URL(mock.url).port;
    let mall = 0;
    const outcomes: string[] = [];
    const runner = runnerOf(language);
    try {
      for (const sample of samples.get(name) ?? []) {
        // The samples address the mock's default port; this one listens elsewhere.
        let script = program(language, sample[language])
          .replaceAll(sampleBase, mock.url)
          .replace(/CURLOPT_PORT => "\d+"/g, `CURLOPT_PORT => "${port}"`);
        // A mall of its own per sample (named after its API, as the APIs' samples run side by side),
        // so the samples never meet a mall's rate limit or each other's records; a sample that names
        // the mall it reads (analytics' mall_id) names that mall, as its reader would.
        mall += 1;
        const ownMall = `${language}${name.slice(0, 2)}${mall}`;
        const entry = model(name).operation(sample.operationId);
        const mallParameter = entry && mallParameterOf(entry);
        const namedMall =
          mallParameter && entry?.parameters.find((p) => p.name === mallParameter)?.definition.example;
        if (typeof namedMall === 'string') script = script.replaceAll(namedMall, ownMall);
        const tokens = await issueDemoTokens(served.authority, served.oauth.scopes, ownMall);
        const env = {
          MALL_ACCESS_TOKEN: tokens.access_token,
          AUTHORIZATION_CODE: await authorizationCode(),
          REFRESH_TOKEN: tokens.refresh_token,
        };
        const before = log.length;
        const output = await outputOf(language, runner.run(script, env)).catch(
          (error: Error) => `FAILED ${error.message}`,
        );
        // This API's lines since the sample started: only this sample's, as each API runs one
        // sample at a time.
        const statuses = log
          .slice(before)
          .filter((line) => line.startsWith(`${name} `))
          .map((line) => Number(line.split(' ')[3]));
        const authorize = sample.path.endsWith('/oauth/authorize');
        if (authorize && language === 'typescript') {
          if (!output.startsWith(`${mock.url}${sample.path}?`) || statuses.length > 0)
            outcomes.push(`${sample.operationId}: ${output.slice(0, 300)}`);
          continue;
        }
        const expected = authorize ? [302] : statuses.map(() => 200);
        const succeeded =
          statuses.length > 0 &&
          statuses.every(
            (status, index) => status === expected[index] || (expected[index] === 200 && status < 300),
          );
        if (!succeeded || output.startsWith('FAILED') || output.trim() === '') {
          outcomes.push(
            `${sample.operationId}: statuses ${statuses.join(',') || 'none'}; ${output.slice(0, 300)}`,
          );
        }
      }
    } finally {
      await runner.close();
    }
    return outcomes;
  }

  // The three APIs' samples run side by side, each API's languages one after another (the mock's
  // log names the API of each request, so each sample's answers are still told apart); each test
  // then reads its own.
  const outcomes = new Map<string, Promise<string[]>>();
  beforeAll(() => {
    const inLane = laneQueue<ApiName>();
    for (const name of apiNames)
      for (const language of Object.keys(interpreters) as Language[])
        outcomes.set(
          `${name}:${language}`,
          inLane(name, () => runSamples(name, language)),
        );
  });

  it.each(
    apiNames.flatMap((name) =>
      (Object.keys(interpreters) as Language[]).map((language) => ({ name, language })),
    ),
  )(
    'run as written against the $name mock and get a success ($language)',
    // A test waits for its API's earlier languages too.
    { timeout: 600_000 },
    async ({ name, language }) => {
      expect(await outcomes.get(`${name}:${language}`)).toEqual([]);
    },
  );
});
