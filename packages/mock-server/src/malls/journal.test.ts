// The journal at the function: per-mall order and filters, the bound per mall, and redaction of
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
    const journal = createJournal(2);
    for (const path of ['/1', '/2', '/3']) journal.record('a', entry(path));
    expect(journal.entries('a').map((e) => e.path)).toEqual(['/2', '/3']);
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
