// Benchmark support: the CPU time the mock's request path takes per request, in one process with
// no sockets: the three APIs' handlers (example mode, or with MOCK_SANDBOX=1 sandbox malls of seed
// 1 shared by the three; rate limits raised out of the way) answer the GET mix over fake requests
// and responses, one at a time after a warm-up, and the process's own CPU time (user + system) is
// divided by the requests answered, so load from other processes on the machine does not count.
// MOCK_CHECKOUT=<dir> measures another checkout's build; the second argument, when given, keeps
// only the requests of those paths (comma-separated, without the query); with MOCK_DISTINCT_URLS=1
// every request carries a counter in a query parameter no API declares (`bench_n`), so no URL
// repeats (as request-mix.mjs's `distinctUrls`). Prints one JSON line:
// { "cpuMicrosPerRequest": number, "failures": number }.
//   node handle-cpu.mjs <requests> [paths]
import { Readable } from 'node:stream';
import { apiNames } from '@mall-api/spec-model';
import { demoAuthority, mixToken, mockServer, rateLimit, sandboxMalls } from './checkout-mock.mjs';
import { requestMix } from './request-mix.mjs';
import { unlimitedLimiter } from './unlimited-limiter.mjs';

const apis = apiNames;
const total = Number(process.argv[2] ?? 30_000);
const paths = process.argv[3]?.split(',');
const distinct = process.env.MOCK_DISTINCT_URLS === '1';
const authority = await demoAuthority();
const malls = process.env.MOCK_SANDBOX === '1' ? await sandboxMalls() : undefined;
const handlers = await Promise.all(
  apis.map((api) =>
    mockServer.createMockApi(api, {
      authority,
      limiter: unlimitedLimiter(api, rateLimit),
      ...(malls ? { malls } : {}),
    }),
  ),
);
const mix = requestMix(await mixToken(authority));
const calls = apis
  .flatMap((api, i) => mix[api].map((request) => ({ handler: handlers[i], request })))
  .filter(({ request }) => !paths || paths.includes(String(request.path).split('?')[0] ?? ''));

/** Answers one request of the mix; the status it got. */
async function answerOne(/** @type {number} */ n) {
  const call = calls[n % calls.length];
  if (!call?.handler) throw new Error('no call');
  const { method, path, headers } = call.request;
  const request = Object.assign(Readable.from([]), {
    method,
    url: distinct ? `${path}${path?.includes('?') ? '&' : '?'}bench_n=${n}` : path,
    headers: { host: '127.0.0.1', ...headers },
    socket: { remoteAddress: '127.0.0.1' },
  });
  let status = 0;
  const response = {
    headersSent: false,
    socket: { destroy() {} },
    writeHead(/** @type {number} */ code) {
      status = code;
      return response;
    },
    end() {},
    destroy() {},
  };
  await call.handler.handle(/** @type {any} */ (request), /** @type {any} */ (response));
  return status;
}

for (let n = 0; n < 3000; n++) await answerOne(n); // compiles validators, lets V8 optimise
const before = process.cpuUsage();
let failures = 0;
for (let n = 0; n < total; n++) if ((await answerOne(n)) >= 300) failures++;
const used = process.cpuUsage(before);
process.stdout.write(
  `${JSON.stringify({ cpuMicrosPerRequest: (used.user + used.system) / total, failures })}\n`,
);
