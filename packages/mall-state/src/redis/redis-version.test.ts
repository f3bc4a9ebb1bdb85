// The Redis version check at start: a Redis 7 or later passes, an older one (or a server that
// names no version) is refused with a message naming the version found and the one required.
import { describe, expect, it } from 'vitest';
import { checkRedisVersion, redisVersionOf } from './redis-version.js';

const info = (version: string) => `# Server\r\nredis_version:${version}\r\nredis_mode:standalone\r\n`;

describe('the Redis version check', () => {
  it('reads the version from INFO server', () => {
    expect(redisVersionOf(info('7.0.15'))).toBe('7.0.15');
    expect(redisVersionOf('# Server\r\n')).toBeUndefined();
  });

  it('passes Redis 7 and later', () => {
    expect(() => checkRedisVersion(info('7.0.0'))).not.toThrow();
    expect(() => checkRedisVersion(info('8.2.1'))).not.toThrow();
  });

  it('refuses an older Redis, naming the version found and the one required', () => {
    expect(() => checkRedisVersion(info('6.2.14'))).toThrow(
      /needs Redis 7 or later .*the server runs Redis 6\.2\.14/,
    );
    expect(() => checkRedisVersion('# Server\r\n')).toThrow(/Redis 7 or later/);
  });
});
