// What an answer must satisfy, from the spec: a documented status, the content type, the 2020-12
// schema, the envelope on errors, and rate-limit headers consistent with each other and the spec.
import { loadSpec } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { type Answer, createAnswerChecks } from './answer-checks.js';

const model = await loadSpec('collection');
const checks = createAnswerChecks(model, 'collection');
const operation = model.operation('listStandardTags');
if (!operation) throw new Error('no listStandardTags');
const answer = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => ({
  status,
  body: body as Answer['body'],
  headers: new Headers({
    'content-type': 'application/json',
    'x-api-call-limit': '1/40',
    'x-ratelimit-limit': '40',
    'x-ratelimit-remaining': '39',
    ...headers,
  }),
});
const tags = { standardtags: [{ standard_tag_key: 'color', standard_tag_values: ['black'] }] };

describe('answer checks', () => {
  it('accept a conforming answer', () => {
    expect(checks.problems(operation, answer(200, tags))).toEqual([]);
  });

  it('find an undocumented status, a wrong content type and a body off the schema', () => {
    expect(checks.problems(operation, answer(418, tags))).toEqual([
      'status 418 is not documented for listStandardTags',
    ]);
    expect(checks.problems(operation, answer(200, tags, { 'content-type': 'text/plain' }))).toEqual([
      'content type text/plain, not application/json',
    ]);
    expect(checks.problems(operation, answer(200, { standardtags: [{ standard_tag_key: 7 }] }))[0]).toMatch(
      /^body\/standardtags\/0/,
    );
  });

  it('find an error without the envelope', () => {
    expect(checks.problems(operation, answer(422, { message: 'no' }))).toContain(
      'an error without the envelope {"error":{"code","message","more_info"}}',
    );
  });

  it('find rate-limit headers missing, malformed, inconsistent or stating another limit than the spec', () => {
    expect(checks.problems(operation, answer(200, tags, { 'x-ratelimit-remaining': '38' }))).toEqual([
      'used 1 + remaining 38 is not the limit 40',
    ]);
    expect(checks.problems(operation, answer(200, tags, { 'x-ratelimit-limit': '50' }))).toEqual([
      "the rate-limit headers state a limit of 50; the spec's x-rate-limit says 40",
    ]);
    expect(checks.problems(operation, answer(200, tags, { 'x-api-call-limit': 'one of forty' }))).toEqual([
      'header X-Api-Call-Limit: one of forty is not a used/limit value',
    ]);
    const headers = new Headers({
      'content-type': 'application/json',
      'x-api-call-limit': '1/40',
      'x-ratelimit-limit': '40',
    });
    expect(checks.problems(operation, { status: 200, headers, body: tags })).toEqual([
      'header X-RateLimit-Remaining is missing',
    ]);
  });
});
