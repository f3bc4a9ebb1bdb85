// The guides against the code they describe: every guide has its front matter and a page on the
// site; the numbers and names they quote (demo credentials, mock ports, rate limits, token
// lifetimes, the longest fault delay) are the ones the mock server, the rate limiter and the samples actually use; and the
// landing page's table of APIs agrees with the specs and the mocks.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  apiProfiles,
  defaultJournalLimits,
  defaultMallLimits,
  demoCollectionClients,
  demoOAuthClient,
  platformOAuthSettings,
} from '@mall-api/mock-server';
import { apiLimits } from '@mall-api/rate-limit';
import { loadSpec, nodeAt } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { demoOAuthSample, mockUrlOf } from '../build/code-samples.mjs';
import { parseGuide } from '../build/guide-pages.mjs';

const docsRoot = join(import.meta.dirname, '..');
const guideFiles = (await readdir(join(docsRoot, 'guides'))).filter((file) => file.endsWith('.md')).sort();
const guideText = async (name: string) => readFile(join(docsRoot, 'guides', `${name}.md`), 'utf8');
const apis = JSON.parse(await readFile(join(docsRoot, 'src', 'apis.json'), 'utf8')) as {
  name: keyof typeof apiProfiles;
}[];

/** A duration as the guides write it: `1 minute`, `2 hours`, `2 weeks`. */
function spelled(ms: number): string {
  const units: [string, number][] = [
    ['week', 7 * 86_400_000],
    ['day', 86_400_000],
    ['hour', 3_600_000],
    ['minute', 60_000],
    ['second', 1_000],
  ];
  const [unit, size] = units.find(([, length]) => ms % length === 0) ?? ['ms', 1];
  const count = ms / size;
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

describe('the guides', () => {
  it('each have a title, a summary and an order, and a page on the site listed in the guides index', async () => {
    const index = await readFile(join(docsRoot, 'dist', 'guides', 'index.html'), 'utf8');
    const orders = new Set<number>();
    for (const file of guideFiles) {
      const name = file.replace(/\.md$/, '');
      const guide = parseGuide(name, await guideText(name));
      expect(guide.title?.length).toBeGreaterThan(3);
      expect(guide.summary?.length).toBeGreaterThan(20);
      orders.add(guide.order);
      expect(index).toContain(`href="${name}.html"`);
      const page = await readFile(join(docsRoot, 'dist', 'guides', `${name}.html`), 'utf8');
      expect(page).toContain(`<title>${guide.title} — mall-api guides</title>`);
      expect(page, `${name}: an unreplaced {{block}}`).not.toMatch(/\{\{[a-z-]+:/);
    }
    expect(orders.size).toBe(guideFiles.length);
  });

  it('quote the demo credentials and ports the mock servers use', async () => {
    const mockGuide = await guideText('mock-servers');
    for (const credential of demoCollectionClients) {
      expect(mockGuide).toContain(`\`${credential.clientId}\` / \`${credential.clientSecret}\``);
    }
    expect(mockGuide).toContain(`\`${demoOAuthClient.clientId}\` / \`${demoOAuthClient.clientSecret}\``);
    for (const profile of Object.values(apiProfiles)) {
      expect(mockGuide).toContain(`\`http://127.0.0.1:${profile.defaultPort}\``);
    }
  });

  it('state the rate limits the limiter enforces', async () => {
    const guide = await guideText('rate-limits');
    const { collection, admin, analytics } = apiLimits;
    if (
      collection.policy.kind !== 'sliding-log' ||
      admin.policy.kind !== 'leaky-bucket' ||
      analytics.policy.kind !== 'token-bucket'
    )
      throw new Error('the guide describes a sliding log, a leaky bucket and a token bucket');
    expect(collection.policy.windowMs).toBe(60_000);
    expect(guide).toContain(`${collection.policy.limit} calls per minute`);
    expect(guide).toContain(
      `holds ${admin.policy.capacity} calls and leaks ${admin.policy.leakPerSecond} calls per second`,
    );
    expect(guide).toContain(
      `burst of ${analytics.policy.capacity}, one token every ${analytics.policy.refillIntervalMs / 1000} seconds`,
    );
    for (const limit of [collection, admin, analytics]) {
      for (const header of Object.keys(limit.headers)) expect(guide).toContain(`\`${header}\``);
    }
  });

  it('state the token lifetimes the platform (and the mock authority) use', async () => {
    const guide = await guideText('authentication');
    const platformLifetimes = (await platformOAuthSettings()).lifetimes;
    expect(guide).toContain(`| Authorization code | ${spelled(platformLifetimes.codeMs)} |`);
    expect(guide).toContain(`| Access token | ${spelled(platformLifetimes.accessTokenMs)} |`);
    expect(guide).toContain(`| Refresh token | ${spelled(platformLifetimes.refreshTokenMs)} |`);
  });
});

describe('the samples and the landing page', () => {
  it('use the demo OAuth app the mock registers, with a loopback redirect it accepts', () => {
    expect(demoOAuthSample.clientId).toBe(demoOAuthClient.clientId);
    expect(demoOAuthSample.clientSecret).toBe(demoOAuthClient.clientSecret);
    expect(demoOAuthSample.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(demoOAuthClient.redirectUris).toContain('http://127.0.0.1/callback');
  });

  it('name for each API the local mock address the mock server listens on', async () => {
    expect(apis.map((api) => api.name).sort()).toEqual(Object.keys(apiProfiles).sort());
    for (const api of apis) {
      const spec = JSON.parse(
        await readFile(join(docsRoot, 'dist', 'specs', `${api.name}.openapi.json`), 'utf8'),
      );
      expect(mockUrlOf(spec)).toBe(`http://127.0.0.1:${apiProfiles[api.name].defaultPort}`);
    }
  });

  it('quote the shared sandbox limits the mock server applies by default', async () => {
    const guide = await guideText('qa-testing');
    const mib = 2 ** 20;
    expect(guide).toContain(`\`--max-malls\` malls (${defaultMallLimits.maxMalls})`);
    expect(guide).toContain(`\`--mall-idle-minutes\` (${defaultMallLimits.idleMs / 60_000})`);
    expect(guide).toContain(
      `| 10,000 and ${defaultJournalLimits.mallBytes / mib} MiB per mall, ${defaultJournalLimits.bytes / mib} MiB in all |`,
    );
    expect(guide).toContain(`(${defaultJournalLimits.entries.toLocaleString('en-US')}) entries`);
  });

  it('quote the longest delay a fault may hold a request, as the control spec bounds it', async () => {
    const guide = await guideText('qa-testing');
    const control = await loadSpec('control');
    const longest = nodeAt(control.document, '#/components/schemas/DelayMs/maximum') as number;
    const quoted = `${longest.toLocaleString('en-US')} ms`;
    expect(guide).toContain(`no delay may pass ${quoted}`);
    expect(guide).toContain(`No delay passes ${quoted}`);
  });
});
