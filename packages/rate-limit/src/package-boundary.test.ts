import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import * as publicApi from './index.js';

describe('package boundary', () => {
  it('imports ioredis from redis-store.ts only, so clients without Redis never load it', async () => {
    const here = new URL('.', import.meta.url);
    const files = (await readdir(here, { recursive: true })).filter(
      (file) => file.endsWith('.ts') && !file.endsWith('.test.ts'),
    );
    const importers: string[] = [];
    for (const file of files) {
      const source = await readFile(new URL(file, here), 'utf8');
      if (/from\s+'ioredis'/.test(source)) importers.push(file);
    }
    expect(importers).toEqual(['redis-store.ts']);
  });

  it('does not export the Redis store from the main entry', () => {
    expect(Object.keys(publicApi)).not.toContain('RedisStore');
    expect(Object.keys(publicApi)).toEqual(
      expect.arrayContaining([
        'createServerLimiter',
        'createRateLimitMiddleware',
        'MemoryStore',
        'apiLimits',
      ]),
    );
  });
});
