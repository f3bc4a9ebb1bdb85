// Control access at the function: callers off the loopback interface are refused unless allowed.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createMockMalls } from '../malls/mock-malls.js';
import { createControlApi } from './control-api.js';

const request = (remoteAddress: string) =>
  ({ method: 'GET', headers: {}, socket: { remoteAddress } }) as unknown as IncomingMessage;
const url = new URL('http://mock.local/__mock/malls');

describe('control access', () => {
  it('answers loopback callers and refuses others with 403', async () => {
    const control = createControlApi(createMockMalls());
    expect((await control(request('127.0.0.1'), url)).status).toBe(200);
    expect((await control(request('::1'), url)).status).toBe(200);
    const remote = await control(request('192.0.2.10'), url);
    expect(remote.status).toBe(403);
  });
  it('answers remote callers when allowed', async () => {
    const control = createControlApi(createMockMalls(), { allowRemote: true });
    expect((await control(request('192.0.2.10'), url)).status).toBe(200);
  });
});
