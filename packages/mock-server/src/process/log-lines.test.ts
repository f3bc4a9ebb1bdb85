// The log lines at the function: text or one JSON object, with the path only (never the query,
// where an OAuth code travels), and an error's cause.
import { describe, expect, it } from 'vitest';
import { errorLine, messageLine, requestLine } from './log-lines.js';

const request = { api: 'admin', method: 'GET', url: '/api/v2/oauth/authorize?code=secret-code&state=s' };

describe('log lines', () => {
  it('writes a request as text or as one JSON object, without its query', () => {
    expect(requestLine('text', request, 302, 1.234)).toBe('admin GET /api/v2/oauth/authorize 302 1.2ms');
    const json = requestLine('json', request, 302, 1.234);
    expect(JSON.parse(json)).toMatchObject({
      level: 'info',
      event: 'request',
      api: 'admin',
      method: 'GET',
      path: '/api/v2/oauth/authorize',
      status: 302,
      durationMs: 1.2,
    });
    expect(json).not.toContain('secret-code');
    expect(JSON.parse(requestLine('json', request, 503, 1)).level).toBe('error');
  });

  it('writes an error with its cause, without the query', () => {
    const line = errorLine('json', request, new TypeError('boom'));
    expect(JSON.parse(line)).toMatchObject({ level: 'error', event: 'error', error: 'boom' });
    expect(line).not.toContain('secret-code');
    expect(errorLine('text', request, new TypeError('boom'))).toMatch(
      /^admin 500 on GET \/api\/v2\/oauth\/authorize: TypeError: boom/,
    );
  });

  it('writes the command’s own messages in the same format', () => {
    expect(messageLine('text', 'ready')).toBe('ready');
    expect(JSON.parse(messageLine('json', 'ready', { port: 1 }))).toMatchObject({
      message: 'ready',
      port: 1,
    });
  });
});
