// The control guard at the function: who may reach the control API (loopback callers, allowed
// Host and Origin, the token) and what it accepts (application/json for POST and PUT, parameters
// ignored; 415 for anything else).
import { describe, expect, it } from 'vitest';
import type { Reply } from '../pipeline/reply.js';
import { type FakeRequest, fakeRequest } from '../pipeline/testing/fake-request.js';
import { type ControlAccess, controlGuard, isAllowedOrigin } from './control-guard.js';

const check = (access: ControlAccess, request: Partial<FakeRequest>, publicHosts: string[] = []) =>
  controlGuard(access, publicHosts)(fakeRequest({ url: '/__mock/malls', ...request }));
const codeOf = (reply: Reply | undefined) =>
  (reply?.body as { error: { code: string } } | undefined)?.error.code;
const json = { 'content-type': 'application/json' };

describe('control guard: callers', () => {
  it('lets loopback callers through and refuses others with 403', () => {
    expect(check({}, { remoteAddress: '127.0.0.1' })).toBeUndefined();
    expect(check({}, { remoteAddress: '::1' })).toBeUndefined();
    const remote = check({}, { remoteAddress: '192.0.2.10' });
    expect(remote?.status).toBe(403);
    expect(codeOf(remote)).toBe('forbidden');
  });
  it('lets remote callers through when allowed', () => {
    expect(check({ allowRemote: true }, { remoteAddress: '192.0.2.10' })).toBeUndefined();
  });
});

describe('control guard: Host (DNS rebinding)', () => {
  it('refuses a Host that is not loopback, *.localhost or a public host', () => {
    expect(check({}, { headers: { host: 'evil.example:4011' } })?.status).toBe(403);
    expect(check({}, { headers: { host: 'qa1.localhost:4011' } })).toBeUndefined();
  });
  it('admits the configured public host names', () => {
    const headers = { host: 'sandbox.example.com' };
    expect(check({}, { headers })?.status).toBe(403);
    expect(check({}, { headers }, ['sandbox.example.com'])).toBeUndefined();
  });
});

describe('control guard: Origin', () => {
  it('refuses a page of another origin, even on loopback', () => {
    const reply = check({}, { headers: { origin: 'http://127.0.0.2:8080' } });
    expect(reply?.status).toBe(403);
    expect(check({}, { headers: { origin: 'null' } })?.status).toBe(403);
  });
  it('admits the docs site by default and the configured origins when given', () => {
    expect(check({}, { headers: { origin: 'http://localhost:8080' } })).toBeUndefined();
    const access = { allowedOrigins: ['https://qa.example.com'] };
    expect(check(access, { headers: { origin: 'https://qa.example.com' } })).toBeUndefined();
    expect(check(access, { headers: { origin: 'http://localhost:8080' } })?.status).toBe(403);
  });
  it('compares origins, not strings', () => {
    expect(isAllowedOrigin('HTTP://LOCALHOST:8080', ['http://localhost:8080/'])).toBe(true);
    expect(isAllowedOrigin('http://localhost:8081', ['http://localhost:8080'])).toBe(false);
    expect(isAllowedOrigin(undefined, [])).toBe(true);
  });
});

describe('control guard: token', () => {
  it('needs the token when one is set', () => {
    expect(check({ token: 's3cret' }, {})?.status).toBe(401);
    expect(check({ token: 's3cret' }, { headers: { 'x-mock-control-token': 'wrong' } })?.status).toBe(401);
    expect(check({ token: 's3cret' }, { headers: { 'x-mock-control-token': 's3cret' } })).toBeUndefined();
  });
});

describe('control guard: media type', () => {
  it('accepts application/json with parameters, in any case', () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON'])
      expect(check({}, { method: 'POST', headers: { 'content-type': type } }), type).toBeUndefined();
    expect(check({}, { method: 'PUT', headers: json })).toBeUndefined();
  });
  it('answers 415 for every type a browser can send without a preflight, and for none', () => {
    for (const type of [
      'application/x-www-form-urlencoded; x=+json',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'text/plain',
      'text/plain; application/json',
      'application/jsonx',
      'application/json+x',
      'application/vnd.api+json',
      'not a media type',
    ]) {
      const reply = check({}, { method: 'POST', headers: { 'content-type': type } });
      expect(reply?.status, type).toBe(415);
      expect(codeOf(reply)).toBe('unsupported_media_type');
    }
    expect(check({}, { method: 'POST' })?.status).toBe(415);
  });
  it('reads no media type on GET and DELETE', () => {
    expect(check({}, { method: 'DELETE' })).toBeUndefined();
    expect(check({}, { method: 'GET', headers: { 'content-type': 'text/plain' } })).toBeUndefined();
  });
});
