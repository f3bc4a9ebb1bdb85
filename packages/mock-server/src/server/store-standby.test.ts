// Which start-up failures mean "a shared store does not answer yet" (wait and retry) and which are
// mistakes to report at once.
import { describe, expect, it } from 'vitest';
import { isStoreOutage } from './store-standby.js';

const coded = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('a store outage at start', () => {
  it('is a refused, reset or timed-out connection, or PostgreSQL starting up, anywhere in the cause chain', () => {
    expect(isStoreOutage(coded('ECONNREFUSED'))).toBe(true);
    expect(isStoreOutage(coded('57P03', 'the database system is starting up'))).toBe(true);
    expect(isStoreOutage(new Error('wrapped', { cause: coded('ETIMEDOUT') }))).toBe(true);
    expect(isStoreOutage(new AggregateError([coded('ECONNREFUSED')], 'every address failed'))).toBe(true);
    expect(
      isStoreOutage(new Error('cannot reach Redis for the shared state: Redis did not answer in time')),
    ).toBe(true);
  });

  it('is not a mistake in the settings or any other failure', () => {
    expect(isStoreOutage(new Error('new malls cannot start as configured: fixture no price'))).toBe(false);
    expect(isStoreOutage(coded('EADDRINUSE', 'listen EADDRINUSE: address already in use'))).toBe(false);
    expect(isStoreOutage(coded('28P01', 'password authentication failed'))).toBe(false);
    expect(isStoreOutage('ECONNREFUSED')).toBe(false);
  });
});
