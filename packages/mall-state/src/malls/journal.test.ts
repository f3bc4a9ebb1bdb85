// The journal at the function, in memory and in Redis alike: per-mall order and filters, the
// bounds (entries and bytes per mall, bytes overall), and redaction of credentials and
// tokens wherever they sit in a query or body; in Redis, entries recorded together go in one call
// of its script, in order (those recorded while a call is under way in the next one), bounded as if
// they came one by one, written at once rather than auto-pipelined, and a failed call fails every one
// of them.
import { describe, expect, it, vi } from 'vitest';
import { redisJournal } from '../redis/redis-journal.js';
import { useTestRedis } from '../testing/shared-redis.js';
import { createJournal, type Journal, type JournalLimits, redactSecrets } from './journal.js';
import { StoreUnavailableError } from './store-unavailable.js';

const redis = useTestRedis();
const implementations: [string, (limits?: JournalLimits) => Promise<Journal>][] = [
  ['memory', async (limits) => createJournal(limits)],
  ['redis', async (limits) => redisJournal(await redis.connect(), limits)],
];

const entry = (path: string, status = 200, query = new URLSearchParams()) => ({
  receivedAtMs: Date.parse('2026-11-23T00:00:00.000Z'),
  api: 'admin',
  method: 'GET',
  path,
  operationId: 'listCategories',
  query,
  body: null,
  status,
  answeredBy: 'answer',
  durationMs: 1,
});

describe.each(implementations)('journal (%s)', (_, createJournal) => {
  it('keeps each mall’s requests apart, in order, and filters them', async () => {
    const journal = await createJournal();
    await journal.record('a', entry('/one'));
    await journal.record('b', entry('/two'));
    await journal.record('a', entry('/three', 404));
    expect((await journal.entries('a')).map((e) => e.path)).toEqual(['/one', '/three']);
    expect((await journal.entries('a', { status: 404 })).map((e) => e.path)).toEqual(['/three']);
    const [first] = await journal.entries('a');
    expect((await journal.entries('a', { after: first?.sequence })).map((e) => e.path)).toEqual(['/three']);
    expect(await journal.clear('a')).toBe(2);
    expect(await journal.entries('b')).toHaveLength(1);
  });
  it('selects the entries the validating proxy found violations in, or those it found none in', async () => {
    const journal = await createJournal();
    await journal.record('a', entry('/clean'));
    await journal.record('a', { ...entry('/broken'), violations: ['answer body/categories must be array'] });
    await journal.record('a', { ...entry('/checked'), violations: [] });
    expect((await journal.entries('a', { violated: true })).map((e) => e.path)).toEqual(['/broken']);
    expect((await journal.entries('a', { violated: false })).map((e) => e.path)).toEqual([
      '/clean',
      '/checked',
    ]);
  });
  it('keeps the rules that refused a request with its entry', async () => {
    const journal = await createJournal();
    await journal.record('a', { ...entry('/refused', 403), refusedBy: ['scope'] });
    await journal.record('a', entry('/answered'));
    expect((await journal.entries('a')).map((e) => e.refusedBy)).toEqual([['scope'], undefined]);
  });
  it('tells the bytes every mall’s journal holds, which clearing gives back', async () => {
    const journal = await createJournal();
    const empty = await journal.bytes();
    await journal.record('a', entry('/one'));
    await journal.record('b', entry('/two'));
    const two = await journal.bytes();
    expect(two).toBeGreaterThan(empty);
    await journal.clear('a');
    const one = await journal.bytes();
    expect(one).toBeLessThan(two);
    expect(one).toBeGreaterThan(empty);
  });
  it('drops the oldest entries past its bound', async () => {
    const journal = await createJournal({ entries: 2 });
    for (const path of ['/1', '/2', '/3']) await journal.record('a', entry(path));
    expect((await journal.entries('a')).map((e) => e.path)).toEqual(['/2', '/3']);
  });
  it('drops a mall’s oldest entries past its bytes, and keeps an oversized body as a note', async () => {
    const journal = await createJournal({ mallBytes: 4_000 });
    const body = { text: 'x'.repeat(1_000) };
    for (const path of ['/1', '/2', '/3', '/4']) await journal.record('a', { ...entry(path), body });
    expect((await journal.entries('a')).map((e) => e.path)).toEqual(['/2', '/3', '/4']);
    await journal.record('a', { ...entry('/huge'), body: { text: 'x'.repeat(10_000) } });
    const last = (await journal.entries('a')).at(-1);
    expect(last).toMatchObject({ path: '/huge', body: expect.stringMatching(/a body of 10011 bytes/) });
  });
});

describe.each(implementations)('journal overall bound (%s)', (_, createJournal) => {
  it('drops the oldest entries of any mall past its overall bytes', async () => {
    const journal = await createJournal({ bytes: 5_000 });
    const body = { text: 'x'.repeat(1_000) };
    await journal.record('a', { ...entry('/a1'), body });
    for (let i = 0; i < 3; i += 1) await journal.record('b', { ...entry(`/b${i}`), body });
    await journal.record('a', { ...entry('/a2'), body });
    await journal.record('c', { ...entry('/c1'), body });
    expect((await journal.entries('a')).map((e) => e.path)).toEqual(['/a2']);
    expect((await journal.entries('b')).map((e) => e.path)).toEqual(['/b2']);
    expect((await journal.entries('c')).map((e) => e.path)).toEqual(['/c1']);
  });
  it('stays within its overall bytes over many malls, cleared ones included', async () => {
    const journal = await createJournal({ bytes: 50_000, mallBytes: 20_000 });
    const body = { text: 'x'.repeat(500) };
    for (let i = 0; i < 5_000; i += 1) {
      await journal.record(`m${i % 97}`, { ...entry(`/${i}`), body });
      if (i % 7 === 0) await journal.clear(`m${(i * 3) % 97}`);
    }
    let kept = 0;
    for (let m = 0; m < 97; m += 1) kept += (await journal.entries(`m${m}`)).length;
    // Each entry counts its body (~512 bytes) and a fixed 256 plus its path: at most 50,000 in all.
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThanOrEqual(Math.floor(50_000 / 770));
    expect((await journal.entries('m4999')).length).toBe(0);
  });
});

describe('journal (memory)', () => {
  it('answers entries with their time and query as sent, secrets redacted', async () => {
    const journal = createJournal();
    await journal.record(
      'a',
      entry('/oauth', 200, new URLSearchParams('code=secret-code&state=s&scope=a&scope=b')),
    );
    expect((await journal.entries('a'))[0]).toMatchObject({
      receivedAt: '2026-11-23T00:00:00.000Z',
      query: { code: '[redacted]', state: 's', scope: ['a', 'b'] },
    });
  });
  it('gives back every query value as the URL carried it (kept as text, not as the parsed URL)', async () => {
    const journal = createJournal();
    const url = new URL('http://mock.local/p?q=a+b%2Bc&tag=%ED%95%9C&tag=x%26y&empty=&ids=1,2');
    await journal.record('a', entry('/p', 200, url.searchParams));
    url.searchParams.set('q', 'changed after the request');
    expect((await journal.entries('a'))[0]?.query).toEqual({
      q: 'a b+c',
      tag: ['한', 'x&y'],
      empty: '',
      ids: '1,2',
    });
  });
  it('redacts credentials and tokens at any depth, and nothing else', () => {
    expect(
      redactSecrets({
        grant_type: 'refresh_token',
        refresh_token: 'r',
        client_secret: 's',
        request: { product_code: 'P1', access_token: 'a' },
      }),
    ).toEqual({
      grant_type: 'refresh_token',
      refresh_token: '[redacted]',
      client_secret: '[redacted]',
      request: { product_code: 'P1', access_token: '[redacted]' },
    });
  });
});

describe('journal (redis, entries recorded together)', () => {
  /** A journal on Redis, its script loaded, and how many script calls Redis ran so far and before. */
  const countedJournal = async (limits?: JournalLimits) => {
    const shared = await redis.connect();
    const journal = redisJournal(shared, limits);
    await journal.record('warmup', entry('/warmup'));
    const scriptCalls = async () =>
      Number(/cmdstat_evalsha:calls=(\d+)/.exec(await shared.client.info('commandstats'))?.[1] ?? 0);
    return { journal, scriptCalls, before: await scriptCalls() };
  };

  it('sends entries recorded together as one call of its script, each mall’s in order', async () => {
    const { journal, scriptCalls, before } = await countedJournal();
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => journal.record(i % 2 ? 'odd' : 'even', entry(`/call/${i}`))),
    );
    expect(await scriptCalls()).toBe(before + 1);
    const odd = await journal.entries('odd');
    expect(odd.map((one) => one.path)).toEqual(['/call/1', '/call/3', '/call/5', '/call/7', '/call/9']);
    const even = await journal.entries('even');
    expect(even.map((one) => one.path)).toEqual(['/call/0', '/call/2', '/call/4', '/call/6', '/call/8']);
    const sequences = [...odd, ...even].map((one) => one.sequence).sort((a, b) => a - b);
    expect(new Set(sequences).size).toBe(10);
    expect(sequences[9]).toBe((sequences[0] ?? 0) + 9);
  });

  it('bounds a call spanning several malls as if its entries came one by one', async () => {
    const limits = { entries: 3, mallBytes: 3_000, bytes: 3_800 };
    const { journal, scriptCalls } = await countedJournal(limits);
    const memory = createJournal(limits);
    await memory.record('warmup', entry('/warmup'));
    type JournalInput = Parameters<Journal['record']>[1];
    const sized = (path: string, bodyBytes: number) => ({
      ...entry(path),
      body: { text: 'x'.repeat(bodyBytes) },
    });
    /** Records the entries together on Redis (one call) and one by one in memory; compares the journals. */
    const call = async (entries: [string, JournalInput][], paths: Record<string, string[]>) => {
      const before = await scriptCalls();
      await Promise.all(entries.map(([mallId, input]) => journal.record(mallId, input)));
      expect(await scriptCalls()).toBe(before + 1);
      for (const [mallId, input] of entries) await memory.record(mallId, input);
      for (const mallId of ['warmup', 'old', 'a', 'b', 'c', 'd']) {
        const expected = (await memory.entries(mallId)).map((one) => one.path);
        expect(expected).toEqual(paths[mallId] ?? []);
        expect((await journal.entries(mallId)).map((one) => one.path)).toEqual(expected);
      }
      expect(await journal.bytes()).toBe(await memory.bytes());
    };
    await call([['old', entry('/old')]], { warmup: ['/warmup'], old: ['/old'] });
    await call([['a', sized('/a1', 2_400)]], { warmup: ['/warmup'], old: ['/old'], a: ['/a1'] });
    // c1 takes the total past its bound (the oldest entry of any mall goes), then a2 takes a past its
    // bytes (a1 goes, which would have left room for the first had it gone first), b1–b5 b past its entries.
    const bs = [1, 2, 3, 4, 5].map((i): [string, JournalInput] => ['b', entry(`/b${i}`)]);
    await call([['c', sized('/c1', 400)], ['a', sized('/a2', 200)], ...bs], {
      old: ['/old'],
      a: ['/a2'],
      b: ['/b3', '/b4', '/b5'],
      c: ['/c1'],
    });
    // d1 and b6 take the total past its bound: the oldest entries of every mall go, by the sorted
    // set's order and the journals' bytes as the last call left them, and d1 of this very call too.
    await call(
      [
        ['d', sized('/d1', 2_600)],
        ['b', sized('/b6', 1_000)],
        ['c', entry('/c2')],
        ['c', entry('/c3')],
      ],
      { b: ['/b6'], c: ['/c2', '/c3'] },
    );
  });

  it('sends the entries recorded while a call is under way together in the next call, after it', async () => {
    const { journal, scriptCalls, before } = await countedJournal();
    // Redis holds the first call (writes paused) until the three later entries are recorded, each
    // in a turn of its own.
    const other = await redis.connect();
    await other.client.call('CLIENT', 'PAUSE', '10000', 'WRITE');
    const first = journal.record('shop', entry('/first'));
    const later: Promise<void>[] = [];
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      later.push(journal.record('shop', entry(`/later/${i}`)));
    }
    await other.client.call('CLIENT', 'UNPAUSE');
    await Promise.all([first, ...later]);
    expect(await scriptCalls()).toBe(before + 2);
    const paths = (await journal.entries('shop')).map((one) => one.path);
    expect(paths).toEqual(['/first', '/later/0', '/later/1', '/later/2']);
  });

  it('writes its call as it is made, not auto-pipelined (other commands still are)', async () => {
    const shared = await redis.connect();
    const journal = redisJournal(shared);
    await journal.record('shop', entry('/loaded'));
    // ioredis makes a pipeline for each auto-pipelined batch and sends it a turn later.
    const pipelines = vi.spyOn(shared.client, 'pipeline');
    await Promise.all([journal.record('shop', entry('/a')), journal.record('other', entry('/b'))]);
    expect(pipelines).not.toHaveBeenCalled();
    await shared.client.get('any');
    expect(pipelines).toHaveBeenCalledTimes(1);
    expect((await journal.entries('shop')).map((one) => one.path)).toEqual(['/loaded', '/a']);
  });

  it('fails every entry of a call that fails', async () => {
    const shared = await redis.connect();
    const journal = redisJournal(shared);
    await journal.record('shop', entry('/before'));
    shared.client.disconnect();
    const results = await Promise.allSettled([
      journal.record('shop', entry('/a')),
      journal.record('other', entry('/b')),
    ]);
    for (const result of results) {
      expect(result.status).toBe('rejected');
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(StoreUnavailableError);
    }
  });
});
