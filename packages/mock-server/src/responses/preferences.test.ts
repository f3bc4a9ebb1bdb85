// Reading the response a QA engineer asked for, without touching the request.
import { describe, expect, it } from 'vitest';
import { readPreference } from './preferences.js';

describe('response preference', () => {
  it('reads code and example from Prefer, quoted or not', () => {
    expect(readPreference('code=404, example="missing"', new URLSearchParams()).preference).toEqual({
      code: 404,
      example: 'missing',
    });
  });
  it('falls back to __code and __example, and Prefer wins over them', () => {
    expect(readPreference(undefined, new URLSearchParams('__code=422&__example=bad')).preference).toEqual({
      code: 422,
      example: 'bad',
    });
    expect(readPreference('code=500', new URLSearchParams('__code=422')).preference.code).toBe(500);
  });
  it('ignores a code that is not three digits', () => {
    expect(readPreference('code=4040', new URLSearchParams()).preference).toEqual({});
  });
  it('returns the query without the mock’s own parameters and leaves the given one unchanged', () => {
    const query = new URLSearchParams('__code=404&limit=5&__seed=1');
    const { apiQuery } = readPreference(undefined, query);
    expect(apiQuery.toString()).toBe('limit=5');
    expect(query.toString()).toBe('__code=404&limit=5&__seed=1');
  });
});
