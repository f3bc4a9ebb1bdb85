// The deployment recipe, checked where no container engine runs: the compose file (two mock
// replicas on PostgreSQL and Redis behind the balancer, the docs site, health checks on /__ready,
// secrets only from the environment), the balancer's nginx configuration (every API port spread
// over both replicas, Host passed on), the Dockerfile's rules (multi-stage, production
// dependencies only, a non-root user, a HEALTHCHECK on /__ready, the API ports exposed, the
// command as entrypoint), the build context's exclusions, the workflow that builds and
// smoke-tests the image where an engine runs, and the deployment guide's settings. The API ports
// and default limits are read from the mock server.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiProfiles, defaultMallLimits } from '@mall-api/mock-server';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const repoRoot = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(repoRoot, path), 'utf8');
const apiPorts = Object.values(apiProfiles).map((profile) => profile.defaultPort);

interface Service {
  networks?: Record<string, { ipv4_address?: string }>;
  build?: { context: string; dockerfile: string; target?: string };
  image?: string;
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
}
const compose = parse(read('deploy/compose.yaml'), { merge: true }) as {
  services: Record<string, Service>;
  networks?: Record<string, { ipam?: { config?: { subnet: string }[] } }>;
};
const replicas = ['mock-1', 'mock-2'].map((name) => [name, compose.services[name] as Service] as const);

/** The Dockerfile's stages: the name after `AS` and the instructions under it. */
function stages(dockerfile: string): { name: string; base: string; lines: string[] }[] {
  const joined = dockerfile.replace(/\\\n/g, ' ');
  const result: { name: string; base: string; lines: string[] }[] = [];
  for (const line of joined.split('\n').map((text) => text.trim())) {
    if (line === '' || line.startsWith('#')) continue;
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from) result.push({ base: from[1] ?? '', name: from[2] ?? '', lines: [] });
    else result.at(-1)?.lines.push(line);
  }
  return result;
}
const dockerStages = stages(read('Dockerfile'));
const runtime = dockerStages.at(-1);
const instruction = (name: string) =>
  (runtime?.lines ?? []).filter((line) => line.toUpperCase().startsWith(`${name} `));

describe('deploy/compose.yaml', () => {
  it('runs two mock replicas, the balancer, PostgreSQL, Redis and the docs site', () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      ['balancer', 'docs', 'mock-1', 'mock-2', 'postgres', 'redis'].sort(),
    );
  });

  it('builds each replica from the Dockerfile and keeps its data on PostgreSQL and its shared state on Redis', () => {
    for (const [, replica] of replicas) {
      expect(replica.build).toMatchObject({ dockerfile: 'Dockerfile', target: 'runtime' });
      expect(replica.environment?.MALL_API_MOCK_STORE).toMatch(/^postgres:\/\/[^@]+@postgres:5432\//);
      expect(replica.environment?.MALL_API_MOCK_REDIS).toBe('redis://redis:6379');
      expect(replica.depends_on).toMatchObject({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      });
      expect(replica.ports ?? []).toEqual([]);
    }
  });

  it('checks each replica’s health on /__ready, and starts the balancer once both are healthy', () => {
    for (const [, replica] of replicas) expect(replica.healthcheck?.test.join(' ')).toContain('/__ready');
    expect(compose.services.balancer?.depends_on).toEqual({
      'mock-1': { condition: 'service_healthy' },
      'mock-2': { condition: 'service_healthy' },
    });
    for (const name of ['balancer', 'docs', 'postgres', 'redis'])
      expect(compose.services[name]?.healthcheck?.test.length).toBeGreaterThan(1);
  });

  it('takes the control token, the database password and the allowed hosts from the environment', () => {
    const interpolated = /^(\S*)\$\{[A-Z_]+(:[?-][^}]*)?\}(\S*)$/;
    for (const [, replica] of replicas) {
      const env = replica.environment ?? {};
      expect(env.MALL_API_MOCK_CONTROL_TOKEN).toMatch(/^\$\{MALL_API_CONTROL_TOKEN:\?/);
      expect(env.MALL_API_MOCK_STORE).toContain('${POSTGRES_PASSWORD:?');
      expect(env.MALL_API_MOCK_PUBLIC_HOST).toMatch(interpolated);
      expect(env.MALL_API_MOCK_ALLOWED_ORIGIN).toMatch(interpolated);
    }
    expect(compose.services.postgres?.environment?.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
    // No secret value is written in the file: every token, password or secret is interpolated.
    for (const service of Object.values(compose.services))
      for (const [name, value] of Object.entries(service.environment ?? {}))
        if (/TOKEN|PASSWORD|SECRET/.test(name)) expect(value, name).toMatch(/^\$\{[A-Z_]+:\?/);
  });

  it('has the replicas believe X-Forwarded-For from the balancer’s fixed address only', () => {
    const balancerAddress = compose.services.balancer?.networks?.default?.ipv4_address;
    expect(balancerAddress).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const subnet = compose.networks?.default?.ipam?.config?.[0]?.subnet ?? '';
    expect(balancerAddress?.startsWith(subnet.replace(/0\/24$/, ''))).toBe(true);
    for (const [, replica] of replicas)
      expect(replica.environment?.MALL_API_MOCK_TRUST_PROXY).toBe(balancerAddress);
  });

  it('publishes every API port on the balancer only', () => {
    expect(compose.services.balancer?.ports).toEqual(apiPorts.map((port) => `${port}:${port}`));
    expect(compose.services.balancer?.volumes).toContain(
      './nginx/balancer.conf:/etc/nginx/conf.d/default.conf:ro',
    );
  });
});

describe('deploy/nginx/balancer.conf', () => {
  const conf = read('deploy/nginx/balancer.conf');

  it('listens on every API port and spreads each over both replicas', () => {
    for (const port of apiPorts) {
      expect(conf).toMatch(new RegExp(`listen ${port};`));
      expect(conf).toMatch(new RegExp(`^\\s+${port} \\w+_api;$`, 'm'));
      expect(conf).toContain(`server mock-1:${port} `);
      expect(conf).toContain(`server mock-2:${port} `);
    }
  });

  it('never retries on a replica’s answer and lets none take a replica out', () => {
    expect(conf).toMatch(/^\s*proxy_next_upstream error timeout;$/m);
    expect(conf).not.toMatch(/http_50\d/);
    expect(conf).not.toMatch(/non_idempotent/);
    expect(conf).toMatch(/^\s*proxy_intercept_errors off;$/m);
  });

  it('adds the caller’s address to X-Forwarded-For', () => {
    expect(conf).toMatch(/proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
  });

  it('passes the caller’s Host on, which the control API and the OAuth endpoints check', () => {
    expect(conf).toMatch(/proxy_set_header Host \$http_host;/);
  });
});

describe('Dockerfile', () => {
  it('has a build stage, a production-dependencies stage, the docs site and the runtime last', () => {
    expect(dockerStages.map((stage) => stage.name)).toEqual(['build', 'deps', 'docs', 'runtime']);
    expect(runtime?.base).toMatch(/^node:.*-slim$/);
  });

  it('installs only production dependencies of the mock’s workspaces, from the lock file', () => {
    const deps = dockerStages.find((stage) => stage.name === 'deps')?.lines.join('\n') ?? '';
    expect(deps).toMatch(/npm ci --omit=dev .*-w @mall-api\/mock-server -w @mall-api\/sandbox/);
  });

  it('copies into the runtime nothing from the build stage: only the packed packages and their dependencies', () => {
    const copies = instruction('COPY');
    expect(copies.length).toBeGreaterThan(0);
    for (const copy of copies) expect(copy).toMatch(/--from=deps\b/);
    const packed = dockerStages.find((stage) => stage.name === 'build')?.lines.join('\n') ?? '';
    expect(packed).toContain('npm pack');
  });

  it('runs as a user other than root', () => {
    const users = instruction('USER');
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^USER\s+(root|0)(:|\s|$)/i);
  });

  it('checks health on /__ready, exposes the API ports and runs mall-api-mock', () => {
    expect(instruction('HEALTHCHECK').join(' ')).toContain('/__ready');
    expect(instruction('EXPOSE')).toEqual([`EXPOSE ${apiPorts.join(' ')}`]);
    expect(instruction('ENTRYPOINT')).toEqual(['ENTRYPOINT ["mall-api-mock"]']);
  });

  it('bakes no secret into the image', () => {
    for (const line of [...instruction('ENV'), ...instruction('ARG')])
      expect(line).not.toMatch(/TOKEN|PASSWORD|SECRET/i);
  });
});

describe('.dockerignore', () => {
  it('leaves installed packages, build outputs, env files and the git directory out of the context', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['**/node_modules', '**/dist', '**/.env', '.git']) expect(ignored).toContain(entry);
  });
});

describe('.github/workflows/container.yml', () => {
  const workflow = parse(read('.github/workflows/container.yml')) as {
    jobs: Record<string, { steps: { run?: string }[] }>;
  };
  const script = Object.values(workflow.jobs)
    .flatMap((job) => job.steps.map((step) => step.run ?? ''))
    .join('\n');

  it('builds the images, starts the topology and waits until it is healthy', () => {
    expect(script).toContain('docker compose -f deploy/compose.yaml build');
    expect(script).toMatch(/docker compose -f deploy\/compose.yaml up -d --wait/);
  });

  it('reads a collection list and an admin list through the balancer, then takes it down', () => {
    const [collection, admin] = apiPorts;
    expect(script).toContain(`http://localhost:${collection}/api/shops`);
    expect(script).toContain(`http://localhost:${admin}/api/v2/admin/categories`);
    expect(script).toContain('docker compose -f deploy/compose.yaml down');
  });
});

describe('docs/guides/deployment.md', () => {
  const guide = read('docs/guides/deployment.md');

  it('explains the store, Redis and worker settings and the health endpoint the recipe uses', () => {
    for (const flag of ['--store postgres://', '--redis redis://', '--workers N', '/__ready', '/__health'])
      expect(guide).toContain(flag);
  });

  it('quotes the mall cap and idle expiry the mock applies by default', () => {
    expect(guide).toContain(
      `| ${defaultMallLimits.maxMalls} malls, ${defaultMallLimits.idleMs / 60_000} minutes |`,
    );
  });

  it('names every file of the recipe', () => {
    for (const file of ['Dockerfile', '.dockerignore', 'deploy/compose.yaml', 'deploy/nginx/balancer.conf'])
      expect(guide).toContain(`\`${file}\``);
  });
});
