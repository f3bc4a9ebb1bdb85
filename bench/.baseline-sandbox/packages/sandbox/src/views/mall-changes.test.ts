// The log of mall changes at the function: the malls changed since a position, once each, and no
// answer for a position the log no longer reaches.
import { describe, expect, it } from 'vitest';
import { createMallChanges } from './mall-changes.js';

describe('mall changes', () => {
  it('names the malls changed since a position', () => {
    const changes = createMallChanges();
    changes.mark('a');
    const after = changes.position();
    changes.mark('b');
    changes.mark('a');
    changes.mark('b');
    expect([...(changes.since(after) ?? [])].sort()).toEqual(['a', 'b']);
    expect(changes.since(changes.position())).toEqual(new Set());
  });

  it('answers undefined for a position older than the changes it keeps', () => {
    const changes = createMallChanges(2);
    const start = changes.position();
    for (const mallId of ['a', 'b', 'c', 'd', 'e']) changes.mark(mallId);
    expect(changes.since(start)).toBeUndefined();
    const recent = changes.position() - 1;
    expect(changes.since(recent)).toEqual(new Set(['e']));
  });
});
