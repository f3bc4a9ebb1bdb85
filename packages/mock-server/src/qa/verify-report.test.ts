// A failed verify at the function: the closest entries with what differs, a few only.

import type { JournalEntry } from '@mall-api/mall-state';
import { describe, expect, it } from 'vitest';
import { closestShown, verifyFailure } from './verify-report.js';

const entry = (sequence: number, operationId: string, method = 'GET', status = 200): JournalEntry => ({
  sequence,
  receivedAt: '2026-01-01T00:00:00.000Z',
  api: 'admin',
  method,
  path: `/api/v2/admin/${operationId}`,
  operationId,
  query: {},
  body: null,
  status,
  answeredBy: 'answer',
  durationMs: 1,
});

describe('verifyFailure', () => {
  it('lists the closest entries first, with the fields that differ', () => {
    const received = [
      entry(1, 'listCategories'),
      entry(2, 'createCategory', 'POST', 422),
      entry(3, 'listProducts'),
    ];
    const message = verifyFailure(
      'qa1',
      { operationId: 'createCategory', status: 201 },
      undefined,
      0,
      received,
    );
    const lines = message.split('\n');
    expect(lines[0]).toBe(
      'Expected at least one request(s) matching {"operationId":"createCategory","status":201} at mall qa1, found 0. The closest of the 3 request(s) the mall received:',
    );
    expect(lines[1]).toBe('  #2 POST /api/v2/admin/createCategory → 422 (createCategory): status 422 ≠ 201');
    expect(lines[2]).toContain('#3 GET');
    expect(lines[2]).toContain('operationId listProducts ≠ createCategory');
  });
  it('shows a few entries of a long journal, never all of them', () => {
    const received = Array.from({ length: 10_000 }, (_, index) => entry(index + 1, 'listCategories'));
    const message = verifyFailure('qa1', { method: 'post' }, 1, 0, received);
    expect(message.split('\n')).toHaveLength(closestShown + 2);
    expect(message).toContain(`… and ${10_000 - closestShown} more`);
    expect(message).toContain('method GET ≠ POST');
  });
  it('says when the mall received nothing', () => {
    expect(verifyFailure('qa1', {}, 2, 0, [])).toMatch(/exactly 2 .* found 0\..*\n {2}\(nothing\)$/);
  });
});
