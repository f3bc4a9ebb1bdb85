// @ts-check
// The pictures of the guides, drawn at build time as inline SVG (no diagram script, no CDN): the
// OAuth 2.0 authorization-code sequence, and for each API's rate limit its bucket over time. The
// bucket pictures are computed, not drawn by hand: a simulated client calls the real limiter of
// @mall-api/rate-limit (the one the mock servers run) on a simulated clock, and a second one goes
// through the real client scheduler (the middleware our clients register). Markup only; the guide
// renderer decides where a picture goes.
import {
  apiLimits,
  createRateLimitMiddleware,
  createServerLimiter,
  MemoryStore,
  manualClock,
  policyLimit,
} from '@mall-api/rate-limit';
import { escapeHtml } from './page-shell.mjs';

/** @typedef {import('@mall-api/rate-limit').ApiName} ApiName */
/**
 * @typedef {{ quantity: 'used' | 'remaining' | 'level', yLabel: string, header: string, durationS: number,
 *   phases: { label: string, count: number, fromMs: number, everyMs: number }[], lead: string }} BucketScenario
 */
/** @typedef {{ t: number, y: number }} Sample */

/** @param {number} value */
const round = (value) => Math.round(value * 10) / 10;

/**
 * A figure with an accessible SVG: `role="img"`, a title and a long description.
 * @param {{ id: string, title: string, description: string, width: number, height: number, body: string,
 *   caption: string }} figure
 */
function figure({ id, title, description, width, height, body, caption }) {
  return `<figure class="diagram" id="${id}">
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-labelledby="${id}-title ${id}-desc">
<title id="${id}-title">${escapeHtml(title)}</title>
<desc id="${id}-desc">${escapeHtml(description)}</desc>
${body}
</svg>
<figcaption>${caption}</figcaption>
</figure>`;
}

/** The steps of the authorization-code flow, as the mall platform and our mock implement them. */
const oauthSteps = [
  {
    from: 1,
    to: 0,
    text: '302 to /api/v2/oauth/authorize',
    sub: 'response_type=code, client_id, state, redirect_uri, scope',
  },
  { from: 0, to: 2, text: 'GET /api/v2/oauth/authorize', sub: 'the operator logs in and consents' },
  {
    from: 2,
    to: 0,
    text: '302 Location: redirect_uri?code=…&state=…',
    sub: 'code: single use, valid 1 minute',
    reply: true,
  },
  { from: 0, to: 1, text: 'GET /callback?code=…&state=…', sub: 'verifyState(): the state must be ours' },
  {
    from: 1,
    to: 2,
    text: 'POST /api/v2/oauth/token',
    sub: 'Basic client_id:client_secret; grant_type=authorization_code',
  },
  {
    from: 2,
    to: 1,
    text: '200 access_token + refresh_token',
    sub: 'access 2 hours · refresh 2 weeks · persist first',
    reply: true,
  },
  { from: 1, to: 3, text: 'GET /api/v2/admin/… (or analytics)', sub: 'Authorization: Bearer <access_token>' },
  {
    from: 3,
    to: 1,
    text: '200 + rate-limit headers',
    sub: '401 if expired → refresh once, resend once',
    reply: true,
  },
  { from: 1, to: 2, text: 'POST /api/v2/oauth/token', sub: 'grant_type=refresh_token (before expiry)' },
  {
    from: 2,
    to: 1,
    text: '200 new access_token + NEW refresh_token',
    sub: 'the old refresh token is now void',
    reply: true,
  },
];

/** The OAuth 2.0 authorization-code flow as a sequence diagram. */
export function oauthSequenceDiagram() {
  const actors = ['Operator’s browser', 'Your app (server)', 'Mall OAuth server', 'Admin / Analytics API'];
  const width = 900;
  const column = (/** @type {number} */ index) => 110 + index * 226;
  const top = 20;
  const headerHeight = 40;
  const stepHeight = 54;
  const firstY = top + headerHeight + 40;
  const height = firstY + oauthSteps.length * stepHeight + 10;
  const parts = [
    '<defs><marker id="oauth-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="arrowhead"/></marker></defs>',
  ];
  actors.forEach((actor, index) => {
    const x = column(index);
    parts.push(`<line class="lifeline" x1="${x}" y1="${top + headerHeight}" x2="${x}" y2="${height - 6}"/>`);
    parts.push(`<rect class="actor" x="${x - 100}" y="${top}" width="200" height="${headerHeight}" rx="6"/>`);
    parts.push(
      `<text class="actor-label" x="${x}" y="${top + 25}" text-anchor="middle">${escapeHtml(actor)}</text>`,
    );
  });
  oauthSteps.forEach((step, index) => {
    const y = firstY + index * stepHeight;
    const x1 = column(step.from);
    const x2 = column(step.to);
    const inset = x2 > x1 ? -4 : 4;
    const middle = (x1 + x2) / 2;
    parts.push(
      `<text class="step-label" x="${middle}" y="${y - 22}" text-anchor="middle">${index + 1}. ${escapeHtml(step.text)}</text>`,
      `<text class="step-note" x="${middle}" y="${y - 7}" text-anchor="middle">${escapeHtml(step.sub)}</text>`,
      `<line class="message${step.reply ? ' reply' : ''}" x1="${x1}" y1="${y}" x2="${x2 + inset}" y2="${y}" marker-end="url(#oauth-arrow)"/>`,
    );
  });
  return figure({
    id: 'oauth-sequence',
    title: 'OAuth 2.0 authorization-code flow of the admin and analytics APIs',
    description: oauthSteps
      .map(
        (step, index) =>
          `${index + 1}. ${actors[step.from]} to ${actors[step.to]}: ${step.text} (${step.sub}).`,
      )
      .join(' '),
    width,
    height,
    body: parts.join('\n'),
    caption:
      'The authorization-code flow. Steps 1–6 happen once per mall (the operator installs your app); steps 7–10 repeat for as long as the grant lives. The token manager of <code>@mall-api/auth</code> performs steps 9–10 for you.',
  });
}

/**
 * How each API's bucket is shown: what is plotted, the phases of the simulated naive client's
 * demand (`count` calls, one every `everyMs`, from `fromMs`), and what the picture says about the
 * algorithm. The per-phase counts in the caption are the simulation's own.
 */
/** @type {Record<string, BucketScenario>} */
const bucketScenarios = {
  collection: {
    quantity: 'used',
    yLabel: 'calls in the last 60 s',
    header: 'X-Api-Call-Limit (used)',
    durationS: 150,
    phases: [
      { label: 'a burst of 50 calls in 2 s', count: 50, fromMs: 10_000, everyMs: 40 },
      { label: 'then one call every 3 s', count: 45, fromMs: 15_000, everyMs: 3_000 },
    ],
    lead: 'Sliding log, 40 calls in any 60 s per client IP. Each admitted call counts for exactly one minute after it was made, so a client that spent its 40 calls in a burst gets its budget back one call at a time, a minute after each.',
  },
  admin: {
    quantity: 'used',
    yLabel: 'bucket level (calls)',
    header: 'X-Api-Call-Limit (used)',
    durationS: 60,
    phases: [
      { label: 'a burst of 60 calls in 1 s', count: 60, fromMs: 2_000, everyMs: 16 },
      { label: 'then 3 calls per second for 10 s', count: 30, fromMs: 4_000, everyMs: 333 },
      { label: 'then 2 calls per second (the drain rate) for 20 s', count: 40, fromMs: 14_000, everyMs: 500 },
    ],
    lead: 'Leaky bucket per mall: it holds 40 calls and drains 2 per second. Faster than the drain, the bucket fills and stays full; at the drain rate its level holds steady; idle, it empties in 20 s.',
  },
  analytics: {
    quantity: 'remaining',
    yLabel: 'tokens in the bucket',
    header: 'X-RateLimit-Remaining',
    durationS: 60,
    phases: [
      { label: 'a burst of 15 calls at once', count: 15, fromMs: 2_000, everyMs: 20 },
      { label: 'then one call every 2 s for 20 s', count: 10, fromMs: 4_000, everyMs: 2_000 },
    ],
    lead: 'Token bucket: a burst of 10, then one token every two seconds. A burst spends the tokens at once; one call every two seconds is never refused but keeps the bucket near empty; idle, it refills to 10 in 20 s.',
  },
};

/**
 * @template T
 * @param {number} count
 * @param {(index: number) => T} at
 */
function range(count, at) {
  return Array.from({ length: count }, (_, index) => at(index));
}

/** Every call of a scenario: its time and the index of its phase, in time order. */
/** @param {BucketScenario} scenario */
const scenarioCalls = (scenario) =>
  scenario.phases
    .flatMap((phase, index) =>
      range(phase.count, (i) => ({ t: phase.fromMs + i * phase.everyMs, phase: index })),
    )
    .sort((a, b) => a.t - b.t);

/**
 * Runs the naive client of a scenario against the real server limiter on a simulated clock: each
 * call's outcome, and the plotted quantity sampled every 100 ms.
 * @param {ApiName} api
 * @param {BucketScenario} scenario
 */
async function simulateServer(api, scenario) {
  let now = 0;
  const clock = () => now;
  const store = new MemoryStore({ clock });
  const limiter = createServerLimiter({ api, store, clock });
  const policy = apiLimits[api].policy;
  /** @type {{ t: number, phase: number, allowed: boolean, y: number }[]} */
  const calls = [];
  /** @type {Sample[]} */
  const samples = [];
  const pending = scenarioCalls(scenario);
  for (let t = 0; t <= scenario.durationS * 1000; t += 100) {
    while (pending.length > 0 && (pending[0]?.t ?? Infinity) < t + 100) {
      const call = pending.shift();
      if (!call) break;
      now = call.t;
      const result = await limiter.take('partner');
      calls.push({
        t: now,
        phase: call.phase,
        allowed: result.allowed,
        y:
          /** @type {Record<string, number>} */ (/** @type {unknown} */ (result.decision))[
            scenario.quantity
          ] ?? 0,
      });
    }
    now = t + 100;
    const decision = await store.peek(`${api}:partner`, policy, now);
    samples.push({
      t: now,
      y: /** @type {Record<string, number>} */ (/** @type {unknown} */ (decision))[scenario.quantity] ?? 0,
    });
  }
  return {
    calls,
    samples: [{ t: 0, y: scenario.quantity === 'remaining' ? policyMax(api) : 0 }, ...samples],
  };
}

/** @param {ApiName} api */
const policyMax = (api) => policyLimit(apiLimits[api].policy);

/**
 * Puts the same burst through the client scheduler (the rate-limit middleware our clients
 * register) on a simulated clock, each request answered at once with the headers of the API's
 * server limiter: the time each queued request is let through.
 * @param {ApiName} api
 * @param {number} burst
 */
async function simulateClient(api, burst) {
  const clock = manualClock(0);
  const middleware = createRateLimitMiddleware({ api, clock: clock.now, sleep: clock.sleep });
  const server = createServerLimiter({ api, clock: clock.now });
  /** @type {number[]} */
  const sentAt = [];
  const all = Promise.all(
    range(burst, async () => {
      const params = { request: new Request('http://127.0.0.1/') };
      await middleware.onRequest(params);
      sentAt.push(clock.now());
      const { status, headers } = await server.take('app');
      await middleware.onResponse({ ...params, response: new Response('{}', { status, headers }) });
    }),
  );
  await clock.run(all);
  return sentAt.sort((a, b) => a - b);
}

/**
 * Axes, grid and labels of a chart; returns the scale functions and the markup.
 * @param {{ width: number, height: number, xMaxS: number, yMax: number, yLabel: string, xTickS: number,
 *   yTick: number }} frame
 */
function chartFrame({ width, height, xMaxS, yMax, yLabel, xTickS, yTick }) {
  const left = 56;
  const right = 16;
  const topPad = 14;
  const bottom = 40;
  const x = (/** @type {number} */ ms) => round(left + (ms / 1000 / xMaxS) * (width - left - right));
  const y = (/** @type {number} */ value) => round(topPad + (1 - value / yMax) * (height - topPad - bottom));
  const parts = [
    `<rect class="plot" x="${left}" y="${topPad}" width="${width - left - right}" height="${height - topPad - bottom}"/>`,
  ];
  for (let value = 0; value <= yMax; value += yTick) {
    parts.push(`<line class="grid" x1="${left}" x2="${width - right}" y1="${y(value)}" y2="${y(value)}"/>`);
    parts.push(`<text class="tick" x="${left - 6}" y="${y(value) + 4}" text-anchor="end">${value}</text>`);
  }
  for (let s = 0; s <= xMaxS; s += xTickS) {
    parts.push(
      `<text class="tick" x="${x(s * 1000)}" y="${height - bottom + 16}" text-anchor="middle">${s}</text>`,
    );
  }
  parts.push(
    `<text class="axis-label" x="${(left + width - right) / 2}" y="${height - 4}" text-anchor="middle">time (s)</text>`,
    `<text class="axis-label" transform="translate(14 ${(topPad + height - bottom) / 2}) rotate(-90)" text-anchor="middle">${escapeHtml(yLabel)}</text>`,
  );
  return { x, y, parts };
}

/**
 * Points of a step line through samples.
 * @param {Sample[]} samples
 * @param {(t: number) => number} x
 * @param {(y: number) => number} y
 */
const polyline = (samples, x, y) => samples.map((sample) => `${x(sample.t)},${y(sample.y)}`).join(' ');

/**
 * The picture of one API's bucket over time, and of the scheduled client's sending times.
 * @param {ApiName} api
 */
export async function bucketDiagram(api) {
  const scenario = bucketScenarios[api];
  if (!scenario) throw new Error(`no bucket scenario for the ${api} API`);
  const { calls, samples } = await simulateServer(api, scenario);
  const limit = policyMax(api);
  const width = 860;
  const height = 260;
  const frame = chartFrame({
    width,
    height,
    xMaxS: scenario.durationS,
    yMax: limit,
    yLabel: scenario.yLabel,
    xTickS: scenario.durationS > 100 ? 30 : 10,
    yTick: limit > 20 ? 10 : 2,
  });
  const { x, y } = frame;
  const parts = [...frame.parts];
  const policy = apiLimits[api].policy;
  if (policy.kind === 'fixed-window') {
    const windowMs = policy.windowMs;
    for (let t = windowMs; t < scenario.durationS * 1000; t += windowMs) {
      parts.push(`<line class="boundary" x1="${x(t)}" x2="${x(t)}" y1="${y(limit)}" y2="${y(0)}"/>`);
    }
  }
  parts.push(`<polyline class="level" points="${polyline(samples, x, y)}"/>`);
  for (const call of calls) {
    if (call.allowed) parts.push(`<circle class="admitted" cx="${x(call.t)}" cy="${y(call.y)}" r="2.6"/>`);
    else {
      const cx = x(call.t);
      const cy = y(call.y) - 8;
      parts.push(
        `<path class="refused" d="M${cx - 3},${cy - 3} L${cx + 3},${cy + 3} M${cx - 3},${cy + 3} L${cx + 3},${cy - 3}"/>`,
      );
    }
  }
  const refused = calls.filter((call) => !call.allowed).length;
  const legendY = 30;
  parts.push(
    `<g class="legend" transform="translate(${width - 290} ${legendY})"><rect class="legend-box" x="-8" y="-14" width="280" height="58" rx="4"/>`,
    `<line class="level" x1="0" x2="22" y1="0" y2="0"/><text x="30" y="4">${escapeHtml(scenario.header)}</text>`,
    `<circle class="admitted" cx="11" cy="18" r="3"/><text x="30" y="22">call admitted (${calls.length - refused})</text>`,
    `<path class="refused" d="M8,33 L14,39 M8,39 L14,33"/><text x="30" y="40">call refused with 429 (${refused})</text></g>`,
  );
  const outcome = scenario.phases
    .map((phase, index) => {
      const mine = calls.filter((call) => call.phase === index);
      const no = mine.filter((call) => !call.allowed).length;
      return `${phase.label}: ${mine.length - no} admitted, ${no} refused`;
    })
    .join('; ');
  const simulated = `Simulated demand: ${outcome}.`;
  return figure({
    id: `bucket-${api}`,
    title: `${api} API rate limit over time`,
    description: `${scenario.lead} ${simulated}`,
    width,
    height,
    body: parts.join('\n'),
    caption: `${escapeHtml(scenario.lead)} ${escapeHtml(simulated)} Computed at build time with the limiter the mock servers run (<code>createServerLimiter</code> of <code>@mall-api/rate-limit</code>) on a simulated clock.`,
  });
}

/**
 * The scheduling picture: a burst queued at once through each API's client scheduler; the
 * cumulative count of requests sent against time, one line per API, none refused.
 */
export async function schedulerDiagram() {
  /** @type {Record<ApiName, number>} */
  const bursts = { collection: 60, admin: 60, analytics: 20 };
  const apis = /** @type {ApiName[]} */ (Object.keys(bursts));
  /** @type {Partial<Record<ApiName, number[]>>} */
  const runs = {};
  for (const api of apis) runs[api] = await simulateClient(api, bursts[api]);
  const width = 860;
  const height = 280;
  const xMaxS = 70;
  const frame = chartFrame({
    width,
    height,
    xMaxS,
    yMax: 60,
    yLabel: 'requests sent',
    xTickS: 10,
    yTick: 10,
  });
  const { x, y } = frame;
  const parts = [...frame.parts];
  const describe = [];
  for (const api of apis) {
    const sent = runs[api] ?? [];
    const points = [{ t: 0, y: 0 }];
    sent.forEach((t, index) => {
      points.push({ t, y: index }, { t, y: index + 1 });
    });
    points.push({ t: xMaxS * 1000, y: sent.length });
    parts.push(`<polyline class="sent sent-${api}" points="${polyline(points, x, y)}"/>`);
    const last = sent[sent.length - 1] ?? 0;
    describe.push(`${api}: ${sent.length} requests queued at once, the last sent at ${round(last / 1000)} s`);
  }
  parts.push(
    `<g class="legend" transform="translate(${width - 250} 150)"><rect class="legend-box" x="-8" y="-14" width="236" height="66" rx="4"/>`,
    ...apis.map(
      (api, index) =>
        `<line class="sent sent-${api}" x1="0" x2="22" y1="${index * 20}" y2="${index * 20}"/><text x="30" y="${index * 20 + 4}">${api} (${bursts[api]} queued)</text>`,
    ),
    '</g>',
  );
  return figure({
    id: 'client-scheduling',
    title: 'How the client scheduler sends a queued burst under each limit',
    description: `${describe.join('; ')}. No request is refused.`,
    width,
    height,
    body: parts.join('\n'),
    caption: `A burst queued at once through each client’s scheduler (simulated clock, the real middleware). ${escapeHtml(describe.join('; '))}. The scheduler never sends a call its model of the bucket would refuse, so none of them gets a 429.`,
  });
}
