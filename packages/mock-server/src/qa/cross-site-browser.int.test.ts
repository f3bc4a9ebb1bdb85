// In Debian's Chromium: a page on another origin (another loopback port) tries every way a page can
// send a request without the control API's consent — fetch with text/plain, a form-urlencoded type
// with `x=+json`, multipart, no-cors, JSON (preflighted), and plain form POSTs — to reset a mall to
// empty and to add a fault. Each attempt reaches the server and is refused; the mall keeps its
// data and has no fault.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedMock, startMock } from './index.js';

let mock: StartedMock;
let browser: Browser;
let page: Server;
let pageOrigin: string;
const mall = 'victim';

/** The attacking page: every request it can make, then a `done` flag for the test to wait on. */
const attackPage = (target: string) => `<!doctype html>
<title>another site</title>
<script>
const reset = ${JSON.stringify(`${target}/__mock/malls/${mall}/reset`)};
const faults = ${JSON.stringify(`${target}/__mock/malls/${mall}/faults`)};
const emptyMall = JSON.stringify({ to: 'empty' });
const fault = JSON.stringify({ action: { kind: 'status', status: 503 } });
const send = (url, init) => fetch(url, { method: 'POST', mode: 'no-cors', ...init }).catch(() => undefined);
// Each form posts into a frame of its own, so that no post's navigation cancels another's.
function formPost(url, enctype, name, value, sink) {
  document.body.append(Object.assign(document.createElement('iframe'), { name: sink }));
  const form = document.createElement('form');
  Object.assign(form, { method: 'POST', action: url, enctype, target: sink });
  const input = Object.assign(document.createElement('input'), { type: 'hidden', name, value });
  form.append(input);
  document.body.append(form);
  form.submit();
}
(async () => {
  for (const [url, body] of [[reset, emptyMall], [faults, fault]]) {
    await send(url, { headers: { 'content-type': 'text/plain' }, body });
    await send(url, { headers: { 'content-type': 'application/x-www-form-urlencoded; x=+json' }, body });
    const multipart = new FormData();
    multipart.append('body', body);
    await send(url, { body: multipart });
    await send(url, { body });
    await send(url, {});
    await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).catch(() => undefined);
  }
  // A text/plain form whose one field spells JSON: {"to":"empty","x":"="}
  formPost(reset, 'text/plain', '{"to":"empty","x":"', '"}', 'sink-reset');
  formPost(faults, 'application/x-www-form-urlencoded', 'action', fault, 'sink-faults');
  document.title = 'done';
})();
</script>`;

beforeAll(async () => {
  mock = await startMock({ apis: ['collection'] });
  page = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(attackPage(mock.urls.collection ?? ''));
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => page?.close(resolve));
  await mock?.close();
});

describe('a page on another origin', () => {
  it('cannot reset a mall or add a fault, by any content type or form', async () => {
    await mock.control.reset(mall); // creates the mall (an unknown mall has no snapshot)
    const before = await mock.control.snapshot(mall);
    const tab = await browser.newPage();
    const answered: { method: string; status: number }[] = [];
    tab.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/__mock/'))
        answered.push({ method: response.request().method(), status: response.status() });
    });
    await tab.goto(pageOrigin);
    await tab.waitForFunction(() => document.title === 'done', undefined, { timeout: 20_000 });
    // Every simple request and both form posts reached the control API and were refused as
    // cross-origin; the JSON one was stopped at its preflight, which gets no CORS answer.
    const posts = () => answered.filter((entry) => entry.method === 'POST');
    await expect.poll(() => posts().length, { timeout: 20_000 }).toBeGreaterThanOrEqual(12);
    await tab.close();
    expect(posts().every((entry) => entry.status === 403)).toBe(true);
    const preflights = answered.filter((entry) => entry.method === 'OPTIONS');
    expect(preflights.every((entry) => entry.status >= 400)).toBe(true);

    expect(await mock.control.faults(mall)).toEqual([]);
    expect(await mock.control.snapshot(mall)).toEqual(before);
    expect(await mock.control.malls()).toContain(mall);
  });
});
