// The OAuth endpoints' transactions. They take a registered app (settings.oauth), not an access
// token: a code is fetched from the authorize endpoint as a browser would after consent, and each
// documented refusal gets the request that provokes it. Without a registered app they are skipped.
import type { ContractSettings } from '../settings.js';
import { type DreddTransaction, setUri, skip } from './dredd-transaction.js';
import { sendRequest } from './http-request.js';

/** Whether `path` is one of the OAuth endpoints. */
export const isOAuthPath = (path: string) =>
  path === '/api/v2/oauth/authorize' || path === '/api/v2/oauth/token';

/** What the OAuth transactions of one run read. */
export interface OAuthRun {
  readonly settings: ContractSettings;
  readonly runId: string;
  readonly basePath: string;
}

/** Gets a fresh authorization code from the authorize endpoint, as a browser would after consent. */
async function obtainCode(run: OAuthRun, clientId: string, redirectUri: string): Promise<string> {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: 'mall.read_category',
    state: run.runId,
  });
  const response = await sendRequest(`${run.settings.baseUrl}/api/v2/oauth/authorize?${query}`, {
    headers: { 'X-Forwarded-For': `contract-${run.runId}-code` },
  });
  const location = response.headers.location ?? 'http://invalid/';
  const code = new URL(location).searchParams.get('code');
  if (!code) throw new Error(`authorize answered ${response.statusCode} without a code`);
  return code;
}

/** Makes an OAuth endpoint's transaction provoke `status` (or skips it, saying why). */
export async function prepareOAuth(
  run: OAuthRun,
  transaction: DreddTransaction,
  status: number,
  path: string,
  params: URLSearchParams,
): Promise<void> {
  const { settings } = run;
  delete transaction.request.headers.Authorization;
  if (status === 403) {
    // The OAuth endpoints refuse plain HTTP with 403 like every other path (x-https-only). Our
    // mock reads the protocol from X-Forwarded-Proto; a real server is reached over HTTPS only.
    if (settings.targetIsMock) transaction.request.headers['X-Forwarded-Proto'] = 'http';
    else skip(transaction, 'a plain-HTTP request cannot be sent to a server reached over HTTPS');
    return;
  }
  if (!settings.oauth) {
    skip(transaction, 'OAuth transactions need a registered app and a user consenting');
    return;
  }
  const { clientId, clientSecret, redirectUri } = settings.oauth;
  if (path.endsWith('/authorize')) {
    params.set('response_type', 'code');
    params.set('client_id', status === 401 ? 'unregistered-app' : clientId);
    params.set('redirect_uri', status === 400 ? 'https://unregistered.example/callback' : redirectUri);
    params.set('scope', 'mall.read_category');
    setUri(transaction, run.basePath, path, params);
    if (status === 200) transaction.request.headers.Prefer = 'code=200';
    return;
  }
  const secret = status === 401 ? 'not-the-secret' : clientSecret;
  transaction.request.headers.Authorization = `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
  transaction.request.headers['Content-Type'] = 'application/x-www-form-urlencoded';
  const code = status === 200 ? await obtainCode(run, clientId, redirectUri) : 'no-such-code';
  transaction.request.body = new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
  }).toString();
}
