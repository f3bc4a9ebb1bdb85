// The balancer of deploy/ as processes, where no container engine runs: Debian's nginx with
// deploy/nginx/balancer.conf (the compose host names and ports swapped for two `mall-api-mock`
// processes on free loopback ports) passes `nginx -t`, spreads the collection API over both
// replicas, answers /__ready through them, and keeps answering when one replica stops.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type ApiName, apiProfiles } from '@mall-api/mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/free-port.mjs';

const repoRoot = join(import.meta.dirname, '..', '..');
const cli = join(repoRoot, 'packages', 'mock-server', 'dist', 'cli.js');
const nginx = existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
const apis = Object.keys(apiProfiles) as ApiName[];
const run = promisify(execFile);
const basic = `Basic ${Buffer.from('demo-partner:demo-partner-secret').toString('base64')}`;

type Ports = Record<ApiName, number>;
const freePorts = async (): Promise<Ports> =>
  Object.fromEntries(await Promise.all(apis.map(async (api) => [api, await freePort()]))) as Ports;

interface Replica {
  child: ChildProcess;
  ports: Ports;
  /** Request lines the replica logged. */
  requests: () => number;
}

/** Starts one `mall-api-mock` replica, logging a line per request, once its admin port is ready. */
async function startReplica(): Promise<Replica> {
  const ports = await freePorts();
  const child = spawn(
    process.execPath,
    [cli, `--ports=${apis.map((api) => `${api}=${ports[api]}`).join(',')}`, '--log-format=json'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  await until(() => output.includes('"message":"ready"'));
  return {
    child,
    ports,
    requests: () => output.split('\n').filter((line) => line.includes('"event":"request"')).length,
  };
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const started = Date.now();
  while (!(await Promise.resolve(condition()).catch(() => false))) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const stopped = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

const dir = mkdtempSync(join(tmpdir(), 'mall-api-balancer-'));
const replicas: Replica[] = [];
let balancer: ChildProcess | undefined;
let front: Ports;
let configFile = '';

beforeAll(async () => {
  replicas.push(await startReplica(), await startReplica());
  front = await freePorts();
  const healthPort = await freePort();
  let conf = readFileSync(join(repoRoot, 'deploy', 'nginx', 'balancer.conf'), 'utf8');
  for (const api of apis) {
    const port = apiProfiles[api].defaultPort;
    replicas.forEach((replica, index) => {
      conf = conf.replaceAll(`server mock-${index + 1}:${port} `, `server 127.0.0.1:${replica.ports[api]} `);
    });
    conf = conf.replace(`listen ${port};`, `listen 127.0.0.1:${front[api]};`);
  }
  conf = conf.replace('listen 8081;', `listen 127.0.0.1:${healthPort};`);
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
  await until(async () => (await fetch(`http://127.0.0.1:${front.collection}/__health`)).ok);
});

afterAll(async () => {
  await Promise.all([
    ...replicas.map((replica) => stopped(replica.child)),
    ...(balancer ? [stopped(balancer)] : []),
  ]);
  rmSync(dir, { recursive: true, force: true });
});

describe('deploy/nginx/balancer.conf in front of two mall-api-mock processes', () => {
  it('passes nginx -t', async () => {
    const { stderr } = await run(nginx, ['-t', '-e', join(dir, 'error.log'), '-p', dir, '-c', configFile]);
    expect(stderr).toContain('test is successful');
  });

  it('spreads collection calls over both replicas, each answered 200 with real data', async () => {
    const before = replicas.map((replica) => replica.requests());
    for (let call = 0; call < 10; call++) {
      const response = await fetch(
        `http://127.0.0.1:${front.collection}/api/shops?shop_language=ko_KR&limit=1`,
        {
          headers: { authorization: basic },
        },
      );
      expect(response.status).toBe(200);
      expect(((await response.json()) as { shops: unknown[] }).shops).toHaveLength(1);
    }
    await until(() => replicas.every((replica, index) => replica.requests() > (before[index] ?? 0)), 5_000);
  });

  it('answers /__ready on every API port through the replicas', async () => {
    for (const api of apis) {
      const response = await fetch(`http://127.0.0.1:${front[api]}/__ready`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ready' });
    }
  });

  it('keeps answering when one replica stops', async () => {
    await stopped((replicas[0] as Replica).child);
    for (let call = 0; call < 6; call++) {
      const response = await fetch(`http://127.0.0.1:${front.collection}/api/shops?limit=1`, {
        headers: { authorization: basic },
      });
      expect(response.status).toBe(200);
    }
  });
});
