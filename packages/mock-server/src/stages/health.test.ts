// The readiness of a process with a store check: `/__ready` is 503 `starting` until marked ready,
// then follows the check (503 `unavailable` while it says false or fails, 200 `ready` again when
// it answers), 503 `stopping` once stopping; `/__health` stays 200 whatever the check says.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHealth, type Health } from './health.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** Serves `health` on a free port; its base URL. */
async function serve(health: Health): Promise<string> {
  const server = createServer((request, response) => {
    if (!health.answer(request, response)) response.writeHead(404).end();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const state = async (url: string) => {
  const response = await fetch(url);
  return [response.status, ((await response.json()) as { status: string }).status];
};

describe('readiness with a store check', () => {
  it('follows the check once ready, and stays live whatever it says', async () => {
    let answer: boolean | Error = true;
    const health = createHealth(async () => {
      if (answer instanceof Error) throw answer;
      return answer;
    });
    const base = await serve(health);
    expect(await state(`${base}/__ready`)).toEqual([503, 'starting']);
    health.markReady();
    expect(await state(`${base}/__ready`)).toEqual([200, 'ready']);
    answer = false;
    expect(await state(`${base}/__ready`)).toEqual([503, 'store-unavailable']);
    answer = new Error('connection refused');
    expect(await state(`${base}/__ready`)).toEqual([503, 'store-unavailable']);
    expect(await state(`${base}/__health`)).toEqual([200, 'live']);
    answer = true;
    expect(await state(`${base}/__ready`)).toEqual([200, 'ready']);
    health.markStopping();
    expect(await state(`${base}/__ready`)).toEqual([503, 'stopping']);
  });
});
