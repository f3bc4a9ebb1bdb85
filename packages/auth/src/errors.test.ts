// Specification of the auth error values: codes and context, serialisation without causes or
// stacks, and the helpers that keep secrets out of them.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  AuthError,
  OAuthError,
  ReauthorizationRequiredError,
  redactSecrets,
  sanitizedCause,
  TokenStoreError,
} from './errors.js';

describe('AuthError', () => {
  it('carries a code, a message and a frozen context', () => {
    const error = new AuthError('state_mismatch', 'OAuth state mismatch', {
      context: { mallId: 'yourmall' },
    });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'AuthError',
      code: 'state_mismatch',
      message: 'OAuth state mismatch',
    });
    expect(error.context).toEqual({ mallId: 'yourmall' });
    expect(Object.isFrozen(error.context)).toBe(true);
  });

  it('serialises to name, code, message and context only — never the cause or the stack', () => {
    const error = new AuthError('store_failed', 'could not write', {
      context: { mallId: 'yourmall' },
      cause: new Error('cause mentioning SECRET'),
    });
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'AuthError',
      code: 'store_failed',
      message: 'could not write',
      context: { mallId: 'yourmall' },
    });
    expect(error.cause).toBeInstanceOf(Error);
  });
});

describe('error subclasses', () => {
  it('OAuthError exposes the HTTP status and OAuth error code, also in its context', () => {
    const error = new OAuthError('token_request_failed', 'failed', {
      status: 401,
      oauthError: 'invalid_client',
    });
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ name: 'OAuthError', status: 401, oauthError: 'invalid_client' });
    expect(error.context).toMatchObject({ status: 401, oauthError: 'invalid_client' });
  });

  it('ReauthorizationRequiredError is an OAuthError with code reauthorization_required and a reason', () => {
    const error = new ReauthorizationRequiredError('refresh_token_expired', 'authorize again');
    expect(error).toBeInstanceOf(OAuthError);
    expect(error).toMatchObject({
      name: 'ReauthorizationRequiredError',
      code: 'reauthorization_required',
      reason: 'refresh_token_expired',
      context: { reason: 'refresh_token_expired' },
    });
  });

  it('TokenStoreError is an AuthError named TokenStoreError', () => {
    const error = new TokenStoreError('lock_timeout', 'busy');
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ name: 'TokenStoreError', code: 'lock_timeout' });
  });
});

describe('redactSecrets', () => {
  it('replaces every occurrence of every secret and ignores empty or missing ones', () => {
    expect(redactSecrets('a SECRET b SECRET c TOKEN', ['SECRET', 'TOKEN', '', undefined])).toBe(
      'a [REDACTED] b [REDACTED] c [REDACTED]',
    );
  });
});

describe('sanitizedCause', () => {
  it('keeps names, messages and string codes along the cause chain, and drops every other property', () => {
    const inner = Object.assign(new Error('connect ECONNREFUSED'), {
      code: 'ECONNREFUSED',
      secret: 'INNER-SECRET',
    });
    const outer = Object.assign(new TypeError('fetch failed', { cause: inner }), {
      command: { name: 'set', args: ['key', 'ARG-SECRET'] },
    });
    const copy = sanitizedCause(outer);
    expect(copy).toMatchObject({ name: 'TypeError', message: 'fetch failed' });
    expect(copy.cause).toMatchObject({ message: 'connect ECONNREFUSED', code: 'ECONNREFUSED' });
    expect(inspect(copy, { depth: 10 })).not.toMatch(/INNER-SECRET|ARG-SECRET/);
  });

  it('turns a thrown non-Error into an Error', () => {
    expect(sanitizedCause('plain string')).toMatchObject({ message: 'plain string' });
  });
});
