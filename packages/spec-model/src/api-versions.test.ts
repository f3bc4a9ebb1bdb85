// The API versions read from each bundle's `x-api-versions`, and the version that answers a request.
import { describe, expect, it } from 'vitest';
import { answeringVersion, apiVersionsOf, declaredApiVersionsOf } from './api-versions.js';
import { loadSpecSync } from './spec-model.js';

describe('apiVersionsOf', () => {
  it('reads the admin API release dates, header and fallback; none for the other two APIs', () => {
    expect(apiVersionsOf(loadSpecSync('admin').document)).toEqual({
      header: 'X-Platform-Api-Version',
      dates: ['2020-09-01'],
      unknownAnsweredAs: 'oldest',
    });
    expect(apiVersionsOf(loadSpecSync('collection').document).dates).toEqual([]);
    expect(apiVersionsOf(loadSpecSync('analytics').document).dates).toEqual([]);
  });

  it('refuses a document without the extension or with a version that is not a date', () => {
    expect(() => apiVersionsOf({})).toThrow(/x-api-versions/);
    expect(() => apiVersionsOf({ 'x-api-versions': { versions: [{ date: 'latest' }] } })).toThrow(
      /release date/,
    );
  });
});

describe('declaredApiVersionsOf', () => {
  it('reads the extension where declared, nothing where absent, and still refuses a malformed one', () => {
    expect(declaredApiVersionsOf(loadSpecSync('admin').document)?.header).toBe('X-Platform-Api-Version');
    expect(declaredApiVersionsOf({})).toBeUndefined();
    expect(() => declaredApiVersionsOf({ 'x-api-versions': { versions: 'all' } })).toThrow(/x-api-versions/);
  });
});

describe('answeringVersion', () => {
  const versions = { header: 'V', dates: ['2024-09-01', '2021-03-01'], unknownAnsweredAs: 'oldest' } as const;

  it('answers with the latest without a header and with a described date as itself', () => {
    expect(answeringVersion(versions, undefined)).toBe('2024-09-01');
    expect(answeringVersion(versions, '2021-03-01')).toBe('2021-03-01');
  });

  it('answers another release date as the fallback, and nothing for a value that is not a date', () => {
    expect(answeringVersion(versions, '2031-12-31')).toBe('2021-03-01');
    expect(answeringVersion({ ...versions, unknownAnsweredAs: 'latest' }, '2019-01-01')).toBe('2024-09-01');
    expect(answeringVersion(versions, 'latest')).toBeUndefined();
    expect(answeringVersion(versions, '2026-13-45')).toBeUndefined();
  });
});
