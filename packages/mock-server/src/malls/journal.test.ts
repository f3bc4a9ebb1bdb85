// The journal at the function: per-mall order and filters, the bounds (entries and bytes per mall,
// bytes overall), and redaction of
// credentials and tokens wherever they sit in a query or body.
import { describe, expect, it } from 'vitest';
import { createJournal, redactSecrets } from './journal.js';

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

describe('journal', () => {
  it('keeps each mall’s requests apart, in order, and filters them', () => {
    const journal = createJournal();
    journal.record('a', entry('/one'));
    journal.record('b', entry('/two'));
    journal.record('a', entry('/three', 404));
    expect(journal.entries('a').map((e) => e.path)).toEqual(['/one', '/three']);
    expect(journal.entries('a', { status: 404 }).map((e) => e.path)).toEqual(['/three']);
    const [first] = journal.entries('a');
    expect(journal.entries('a', { after: first?.sequence }).map((e) => e.path)).toEqual(['/three']);
    expect(journal.clear('a')).toBe(2);
    expect(journal.entries('b')).toHaveLength(1);
  });
  it('selects the entries the validating proxy found violations in, or those it found none in', () => {
    const journal = createJournal();
    journal.record('a', entry('/clean'));
    journal.record('a', { ...entry('/broken'), violations: ['answer body/categories must be array'] });
    journal.record('a', { ...entry('/checked'), violations: [] });
    expect(journal.entries('a', { violated: true }).map((e) => e.path)).toEqual(['/broken']);
    expect(journal.entries('a', { violated: false }).map((e) => e.path)).toEqual(['/clean', '/checked']);
  });
  it('drops the oldest entries past its bound', () => {
    const journal = createJournal({ entries: 2 });
    for (const path of ['/1', '/2', '/3']) journal.record('a', entry(path));
    expect(journal.entries('a').map((e) => e.path)).toEqual(['/2', '/3']);
  });
  it('drops a mall’s oldest entries past its bytes, and keeps an oversized body as a note', () => {
    const journal = createJournal({ mallBytes: 4_000 });
    const body = { text: 'x'.repeat(1_000) };
    for (const path of ['/1', '/2', '/3', '/4']) journal.record('a', { ...entry(path), body });
    expect(journal.entries('a').map((e) => e.path)).toEqual(['/2', '/3', '/4']);
    journal.record('a', { ...entry('/huge'), body: { text: 'x'.repeat(10_000) } });
    const last = journal.entries('a').at(-1);
    expect(last).toMatchObject({ path: '/huge', body: expect.stringMatching(/a body of 10011 bytes/) });
  });
  it('drops the oldest entries of any mall past its overall bytes', () => {
    const journal = createJournal({ bytes: 5_000 });
    const body = { text: 'x'.repeat(1_000) };
    journal.record('a', { ...entry('/a1'), body });
    for (let i = 0; i < 3; i += 1) journal.record('b', { ...entry(`/b${i}`), body });
    journal.record('a', { ...entry('/a2'), body });
    journal.record('c', { ...entry('/c1'), body });
    expect(journal.entries('a').map((e) => e.path)).toEqual(['/a2']);
    expect(journal.entries('b').map((e) => e.path)).toEqual(['/b2']);
    expect(journal.entries('c').map((e) => e.path)).toEqual(['/c1']);
  });
  it('stays within its overall bytes over many malls, cleared ones included', () => {
    const journal = createJournal({ bytes: 50_000, mallBytes: 20_000 });
    const body = { text: 'x'.repeat(500) };
    for (let i = 0; i < 5_000; i += 1) {
      journal.record(`m${i % 97}`, { ...entry(`/${i}`), body });
      if (i % 7 === 0) journal.clear(`m${(i * 3) % 97}`);
    }
    let kept = 0;
    for (let m = 0; m < 97; m += 1) kept += journal.entries(`m${m}`).length;
    // Each entry counts its body (~512 bytes) and a fixed 256 plus its path: at most 50,000 in all.
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThanOrEqual(Math.floor(50_000 / 770));
    expect(journal.entries('m4999').length).toBe(0);
  });
  it('answers entries with their time and query as sent, secrets redacted', () => {
    const journal = createJournal();
    journal.record(
      'a',
      entry('/oauth', 200, new URLSearchParams('code=secret-code&state=s&scope=a&scope=b')),
    );
    expect(journal.entries('a')[0]).toMatchObject({
      receivedAt: '2026-11-23T00:00:00.000Z',
      query: { code: '[redacted]', state: 's', scope: ['a', 'b'] },
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
