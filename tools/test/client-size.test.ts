// The size limit CI enforces: each client package, bundled with all it imports, minified and
// gzipped without types, stays within its limit (`clientSizeLimits`), and pulls in no Node
// built-in (so it runs in browsers and edge runtimes, and never drags in Redis or file-system code).
import { describe, expect, it } from 'vitest';
import { clientSizeLimits, measureClient } from '../src/client-size.mjs';

describe.each(Object.entries(clientSizeLimits))('%s', (name, limit) => {
  it(`is at most ${limit} bytes minified and gzipped, with no Node built-in`, async () => {
    const size = await measureClient(name);
    expect(size.gzipped).toBeLessThanOrEqual(limit);
    expect(size.gzipped).toBeGreaterThan(1000);
    expect(size.imports).toEqual([]);
  });
});
