// HTTP face of the mock authorization server: `GET /api/v2/oauth/authorize` (302 back to the
// app with a code and the unchanged state; PKCE's `code_challenge` is passed on) and `POST /api/v2/oauth/token` (form-encoded body,
// client credentials in a Basic header) for both grants. Errors are RFC 6749 bodies
// (`{error, error_description}`), as the platform's token endpoint sends them.
import type { IncomingMessage } from 'node:http';
import { parseBasicAuthorization } from '@mall-api/auth';
import { readBodyText } from '../http/request-body.js';
import type { OAuthFailure } from './authority-state.js';
import type { OAuthAuthority } from './oauth-authority.js';

/** An answer of the OAuth routes. */
export interface OAuthReply {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Paths the OAuth routes serve. */
export const oauthPaths = { authorize: '/api/v2/oauth/authorize', token: '/api/v2/oauth/token' } as const;

/** Whether `path` is one of the OAuth endpoints. */
export const isOAuthPath = (path: string): boolean =>
  path === oauthPaths.authorize || path === oauthPaths.token;

const failureReply = (failure: OAuthFailure): OAuthReply => ({
  status: failure.status,
  headers: failure.status === 401 ? { 'www-authenticate': 'Basic realm="oauth"' } : {},
  body: { error: failure.error, error_description: failure.description },
});

const badRequest = (error: OAuthFailure['error'], description: string) =>
  failureReply({ status: 400, error, description });

/** Handles an OAuth request for `mallId`, or returns undefined when the path is not an OAuth path. */
export async function handleOAuthRequest(
  authority: OAuthAuthority,
  request: IncomingMessage,
  url: URL,
  mallId: string,
): Promise<OAuthReply | undefined> {
  const method = request.method ?? 'GET';
  if (url.pathname === oauthPaths.authorize && method === 'GET') {
    const q = url.searchParams;
    const outcome = await authority.authorize({
      mallId,
      responseType: q.get('response_type'),
      clientId: q.get('client_id'),
      redirectUri: q.get('redirect_uri'),
      scope: q.get('scope'),
      state: q.get('state'),
      codeChallenge: q.get('code_challenge'),
      codeChallengeMethod: q.get('code_challenge_method'),
    });
    if (outcome.ok) return { status: 302, headers: { location: outcome.location }, body: undefined };
    return failureReply(outcome.failure);
  }
  if (url.pathname === oauthPaths.token && method === 'POST') {
    const contentType = request.headers['content-type'] ?? '';
    if (!contentType.toLowerCase().startsWith('application/x-www-form-urlencoded'))
      return badRequest('invalid_request', 'Send the form as application/x-www-form-urlencoded.');
    const text = await readBodyText(request, 64 * 1024);
    if (text === undefined) return badRequest('invalid_request', 'The request body is too large.');
    const form = new URLSearchParams(text);
    const client = parseBasicAuthorization(request.headers.authorization);
    const grant = form.get('grant_type');
    if (grant !== 'authorization_code' && grant !== 'refresh_token')
      return badRequest('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
    const result =
      grant === 'refresh_token'
        ? await authority.refresh(client, form.get('refresh_token'))
        : await authority.exchangeCode(
            client,
            form.get('code'),
            form.get('redirect_uri'),
            form.get('code_verifier'),
          );
    return 'error' in result ? failureReply(result) : { status: 200, headers: {}, body: result };
  }
  return undefined;
}
