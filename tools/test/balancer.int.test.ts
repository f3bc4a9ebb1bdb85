// The balancer of deploy/ as processes, where no container engine runs: Debian's nginx with
// deploy/nginx/balancer.conf (the compose host names and ports swapped for loopback ports) in front
// of two `mall-api-mock` replicas on one real PostgreSQL and one real Redis, which trust the
// balancer's address for X-Forwarded-For as the compose file has them do. It passes `nginx -t`,
// spreads calls over both replicas and answers /__ready through them; it never retries an answered
// request (an injected "next 2 calls → 503" shows as 503, 503, 200 with 3 journal entries); a store
// outage shows as the replicas' enveloped 503s and traffic is back as soon as they are ready; two
// testers on distinct addresses keep their own rate-limit windows whatever X-Forwarded-For they
// send; a stopped replica is skipped; and with no replica left it answers the envelope itself.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type ApiName, apiProfiles } from '@mall-api/mock-server';
import { freePort } from '@mall-api/test-support/free-port';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectionAuthorization,
  type Replica,
  stopReplicas,
  until,
  useReplicaSet,
} from '../../packages/mock-server/src/testing/replica-set.js';

const repoRoot = join(import.meta.dirname, '..', '..');
const nginx = existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
const apis = Object.keys(apiProfiles) as ApiName[];
const run = promisify(execFile);

// The replicas log a JSON line per request and trust the balancer (nginx connects from 127.0.0.1).
const stores = useReplicaSet(2, ['--log-format=json', '--trust-proxy=127.0.0.1']);
const { replicas } = stores;
const portOf = (replica: Replica, api: ApiName) => Number(new URL(replica.url(api)).port);
/** Request lines a replica logged. */
const requestsOf = (replica: Replica) =>
  replica
    .output()
    .split('\n')
    .filter((line) => line.includes('"event":"request"')).length;

const dir = mkdtempSync(join(tmpdir(), 'mall-api-balancer-'));
const front = {} as Record<ApiName, number>;
let balancer: ChildProcess | undefined;
let configFile = '';

beforeAll(async () => {
  let conf = readFileSync(join(repoRoot, 'deploy', 'nginx', 'balancer.conf'), 'utf8');
  for (const api of apis) {
    const port = apiProfiles[api].defaultPort;
    front[api] = await freePort();
    replicas.forEach((replica, index) => {
      conf = conf.replaceAll(
        `server mock-${index + 1}:${port} `,
        `server 127.0.0.1:${portOf(replica, api)} `,
      );
    });
    conf = conf
      .replace(`listen ${port};`, `listen 127.0.0.1:${front[api]};`)
      .replace(new RegExp(`^(\\s+)${port}( \\w+;)$`, 'm'), `$1${front[api]}$2`);
  }
  conf = conf.replace('listen 8081;', `listen 127.0.0.1:${await freePort()};`);
  writeFileSync(join(dir, 'balancer.conf'), conf);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((kind) => `${kind}_temp_path ${join(dir, kind)};`)
    .join(' ');
  configFile = join(dir, 'nginx.conf');
  writeFileSync(
    configFile,
    `daemon off; worker_processes 1; pid ${join(dir, 'nginx.pid')}; error_log ${join(dir, 'error.log')};
events {}
http { access_log off; ${temp} include ${join(dir, 'balancer.conf')}; }
`,
  );
  balancer = spawn(nginx, ['-e', join(dir, 'error.log'), '-p', dir, '-c', configFile], { stdio: 'inherit' });
  await until(async () => (await call('collection', '/__ready')).status === 200);
}, 30_000);

afterAll(async () => {
  if (balancer && balancer.exitCode === null) {
    const exited = new Promise((resolve) => balancer?.once('exit', resolve));
    balancer.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One request through the balancer, from a chosen loopback source address (a tester's machine). */
function call(
  api: ApiName,
  path: string,
  {
    from = '127.0.0.1',
    method = 'GET',
    headers = {},
    body,
  }: {
    from?: string;
    method?: string;
    headers?: Record<string, string>;
    body?: unknown;
  } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const outgoing = httpRequest(
      {
        host: '127.0.0.1',
        port: front[api],
        path,
        method,
        localAddress: from,
        agent: false,
        headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

/** The collection API's shop list of a mall, with the demo credentials. */
const shops = (mall: string, options: { from?: string; headers?: Record<string, string> } = {}) =>
  call('collection', `/__mall/${mall}/api/shops?limit=1`, {
    ...options,
    headers: { authorization: collectionAuthorization, ...options.headers },
  });

/** The answer is the API's error envelope as JSON with the given code. */
function expectEnvelope(answer: Answer, code: string): void {
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(answer.text) as { error: Record<string, unknown> };
  expect(Object.keys(body.error)).toEqual(['code', 'message', 'more_info']);
  expect(body.error.code).toBe(code);
}

describe('deploy/nginx/balancer.conf in front of two mall-api-mock replicas on shared stores', () => {
  it('passes nginx -t', async () => {
    const { stderr } = await run(nginx, ['-t', '-e', join(dir, 'error.log'), '-p', dir, '-c', configFile]);
    expect(stderr).toContain('test is successful');
  });

  it('spreads collection calls over both replicas, each answered 200 with real data', async () => {
    const before = replicas.map(requestsOf);
    for (let made = 0; made < 10; made++) {
      const answer = await shops('spread');
      expect(answer.status).toBe(200);
      expect((JSON.parse(answer.text) as { shops: unknown[] }).shops).toHaveLength(1);
    }
    await until(
      async () => replicas.every((replica, index) => requestsOf(replica) > (before[index] ?? 0)),
      5_000,
    );
  });

  it('answers /__ready on every API port through the replicas', async () => {
    for (const api of apis) {
      const answer = await call(api, '/__ready');
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.text)).toEqual({ status: 'ready' });
    }
  });

  it('passes an injected "next 2 calls → 503" through as 503, 503, 200, with 3 journal entries', async () => {
    const mall = 'faults';
    const added = await call('collection', `/__mock/malls/${mall}/faults`, {
      method: 'POST',
      body: { match: { operationId: 'listShops' }, action: { kind: 'status', status: 503 }, times: 2 },
    });
    expect(added.status).toBeLessThan(300);
    const answers = [await shops(mall), await shops(mall), await shops(mall)];
    expect(answers.map((answer) => answer.status)).toEqual([503, 503, 200]);
    for (const answer of answers.slice(0, 2)) expectEnvelope(answer, 'service_unavailable');
    const counted = await call('collection', `/__mock/malls/${mall}/journal/count?operationId=listShops`);
    expect(JSON.parse(counted.text)).toEqual({ count: 3 });
  });

  it('gives two testers behind it their own collection windows, whatever X-Forwarded-For they send', async () => {
    const mall = 'windows';
    const first = await shops(mall, { from: '127.0.0.2' });
    const limit = Number(String(first.headers['x-api-call-limit']).split('/')[1]);
    expect(limit).toBeGreaterThan(1);
    // Each call makes up a new client address: the right-most hop nginx adds is the one counted.
    for (let made = 1; made < limit; made++)
      expect(
        (await shops(mall, { from: '127.0.0.2', headers: { 'x-forwarded-for': `198.51.100.${made}` } }))
          .status,
      ).toBe(200);
    const refused = await shops(mall, {
      from: '127.0.0.2',
      headers: { 'x-forwarded-for': '198.51.100.250' },
    });
    expect(refused.status).toBe(429);
    expectEnvelope(refused, 'too_many_requests');
    const other = await shops(mall, { from: '127.0.0.3' });
    expect(other.status).toBe(200);
    expect(other.headers['x-api-call-limit']).toBe(`1/${limit}`);
  });

  it('answers a store outage with the replicas’ enveloped 503s and sends traffic back once they are ready', async () => {
    const mall = 'outage';
    expect((await shops(mall)).status).toBe(200);
    const ready = async (replica: Replica) => (await fetch(`${replica.url('collection')}/__ready`)).status;
    await stores.postgres.pause();
    try {
      for (const replica of replicas) await until(async () => (await ready(replica)) === 503);
      for (let made = 0; made < 4; made++) {
        const answer = await shops(mall);
        expect(answer.status).toBe(503);
        expectEnvelope(answer, 'service_unavailable');
      }
    } finally {
      await stores.postgres.start();
    }
    for (const replica of replicas) await until(async () => (await ready(replica)) === 200);
    const before = replicas.map(requestsOf);
    for (let made = 0; made < 6; made++) expect((await shops(mall)).status).toBe(200);
    // Both replicas took calls: neither was held out for answering 503s.
    await until(
      async () => replicas.every((replica, index) => requestsOf(replica) > (before[index] ?? 0)),
      5_000,
    );
  }, 60_000);

  it('keeps answering when one replica stops', async () => {
    await stopReplicas([replicas[0] as Replica]);
    for (let made = 0; made < 6; made++) expect((await shops('one-left')).status).toBe(200);
  });

  it('answers the envelope itself, 503 with Retry-After, when no replica can be reached', async () => {
    await stopReplicas(replicas);
    const answer = await shops('none-left');
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('1');
    expectEnvelope(answer, 'service_unavailable');
  });
});
