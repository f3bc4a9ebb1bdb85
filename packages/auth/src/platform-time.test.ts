// Specification of the platform's datetimes: no zone suffix, read and written as +09:00 (KST).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatPlatformDateTime, parsePlatformDateTime } from './platform-time.js';

describe('parsePlatformDateTime', () => {
  it('reads a datetime without zone suffix as +09:00', () => {
    expect(parsePlatformDateTime('2021-03-01T14:00:00.000')?.toISOString()).toBe('2021-03-01T05:00:00.000Z');
  });

  it('accepts the form without milliseconds and with fewer fraction digits', () => {
    expect(parsePlatformDateTime('2021-03-01T00:30:00')?.toISOString()).toBe('2021-02-28T15:30:00.000Z');
    expect(parsePlatformDateTime('2021-03-01T14:00:00.5')?.toISOString()).toBe('2021-03-01T05:00:00.500Z');
  });

  it('honours an explicit Z or offset suffix', () => {
    expect(parsePlatformDateTime('2021-03-01T14:00:00.000Z')?.toISOString()).toBe('2021-03-01T14:00:00.000Z');
    expect(parsePlatformDateTime('2021-03-01T14:00:00.000+09:00')?.toISOString()).toBe(
      '2021-03-01T05:00:00.000Z',
    );
    expect(parsePlatformDateTime('2021-03-01T14:00:00.000-02:30')?.toISOString()).toBe(
      '2021-03-01T16:30:00.000Z',
    );
  });

  it.each([
    '',
    '2021-03-01',
    '2021-03-01 14:00:00',
    '2021-02-30T00:00:00.000',
    '2021-13-01T00:00:00.000',
    '2021-03-01T24:00:00.000',
    '2021-03-01T14:00:00.0000',
    'yesterday',
  ])('rejects %j', (value) => {
    expect(parsePlatformDateTime(value)).toBeUndefined();
  });
});

describe('formatPlatformDateTime', () => {
  it('writes +09:00 wall-clock time with milliseconds and no suffix', () => {
    expect(formatPlatformDateTime(new Date('2021-03-01T05:00:00.000Z'))).toBe('2021-03-01T14:00:00.000');
  });

  it('is the inverse of parsePlatformDateTime', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01Z'), max: new Date('2099-12-31Z'), noInvalidDate: true }),
        (date) => {
          expect(parsePlatformDateTime(formatPlatformDateTime(date))?.getTime()).toBe(date.getTime());
        },
      ),
    );
  });
});
