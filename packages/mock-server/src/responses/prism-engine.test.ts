// Prism's engine over a spec model's document: it answers a documented response, and reading the
// document leaves it as it was (the spec model keeps its `$ref`s for every other reader).
import { loadSpec } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { createPrismEngine } from './prism-engine.js';

describe('the Prism engine', () => {
  it('answers from the document without changing it', async () => {
    const document = structuredClone((await loadSpec('admin')).document);
    const before = JSON.stringify(document);
    const engine = await createPrismEngine(document);
    const answer = await engine.handle(
      { method: 'GET', path: '/api/v2/admin/categories/count', query: {}, headers: {} },
      {},
    );
    expect(answer).toMatchObject({ kind: 'response', status: 200 });
    expect(JSON.stringify(document)).toBe(before);
  });
});
