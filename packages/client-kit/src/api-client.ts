// Assembles an openapi-fetch client the way all three mall clients need it: base URL (refused when
// it is plain HTTP to an HTTPS-only API, loopback hosts aside), comma-list query serialization,
// default headers with the client's `User-Agent` (set before any middleware runs, so a resent
// request carries them too), the auth middleware, then the request sender — the API's rate-limit scheduler, or a
// plain sender when scheduling is off — registered last and used as the client's `fetch`, so every
// attempt is queued, timed out, retried and reported in one place. Auth comes first so the copy the
// sender keeps for a retry carries the credentials. The calls are wrapped for typed errors, events
// get the spec's operationId, and `rateLimit()` tells what the headers last reported.

import type { TokenRefreshEvent } from '@mall-api/auth';
import {
  type ApiLimitModel,
  type BackoffOptions,
  createModelScheduler,
  createRequestSender,
  type LimitReport,
  type RateLimitMiddlewareCommonOptions,
  type RequestSender,
  type SendEvent,
} from '@mall-api/rate-limit';
import createClient, { type Middleware } from 'openapi-fetch';
import { type MallClient, wrapCalls } from './mall-client.js';
import { commaListQuery } from './query-serializer.js';

/** What a client reports: each attempt's request and response, retries, queue waits and token refreshes. */
export type ClientEvent = (SendEvent & { readonly operationId: string | undefined }) | TokenRefreshEvent;

/** The options every mall client takes for failures, timeouts, errors and events. */
export interface ClientRuntimeOptions<ClientThrows extends boolean = boolean> {
  /**
   * Times a failed call is resent (default 2): GET, PUT and DELETE on 500, 503, 504 and 408, a
   * refused or dropped connection and a timeout; a POST only when the call says `retryPost: true`.
   * A call may set its own `maxRetries`. 429s are resent by the rate-limit scheduler (`rateLimit.maxRetries`).
   */
  maxRetries?: number;
  /**
   * Ms one attempt may take until its response is read (default 60 000); time queued under the
   * rate limit does not count. A call may set its own `timeout`; its `signal` still aborts it.
   */
  timeout?: number;
  /** Backoff between failure retries (default 500 ms doubling, capped at 8 s, full jitter; never before `Retry-After`). */
  retryBackoff?: BackoffOptions;
  /** Throw a `MallApiError` on an error status instead of returning `{ error }` (default false); a call may override. */
  throwOnError?: ClientThrows;
  /**
   * Receives every request, response, retry, rate-limit wait and token refresh with its timings
   * (credentials redacted), for your logs or traces. It must not throw.
   */
  onEvent?: (event: ClientEvent) => void;
  /**
   * Send credentials to an HTTPS-only API over plain `http://` to a host other than a loopback
   * address (default false: the client refuses to be created with such a `baseUrl`).
   */
  allowInsecureHttp?: boolean;
}

/** What {@link assembleApiClient} needs. */
export interface ApiClientParts extends ClientRuntimeOptions {
  baseUrl: string;
  fetch?: typeof globalThis.fetch | undefined;
  /** Headers sent with every request (e.g. an API version); a request's own headers win. */
  headers?: Readonly<Record<string, string>>;
  /** Adds credentials to each request (Basic or bearer). */
  auth: Middleware;
  /** The API's limit model (e.g. `adminLimitModel`): its limit and the one algorithm that runs it schedule the requests. */
  api: ApiLimitModel;
  /** Scheduling options, or `false` to send unscheduled (429s are then handed back at once). */
  rateLimit?: RateLimitMiddlewareCommonOptions | false | undefined;
  /** The rate-limit bucket when `rateLimit` names none (the admin mall ID). */
  rateLimitKey?: string;
  /** The spec's operationIds by path template and upper-case method (the client's generated map). */
  operationIds: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Whether the API accepts HTTPS only (the spec's `x-https-only`, generated). */
  httpsOnly: boolean;
  /** The `User-Agent` sent with every request (generated from the package name and version). */
  userAgent: string;
}

/** A loopback host: `localhost`, 127.0.0.0/8 or `[::1]`. */
const loopback = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/** A mall client: typed calls plus the rate-limit state its responses last reported. */
export type ApiClient<Paths extends {}, ClientThrows extends boolean> = MallClient<Paths, ClientThrows> & {
  /** Used, remaining and capacity as the rate-limit headers of the last response said (none before the first). */
  rateLimit(): LimitReport | undefined;
};

/**
 * Creates an openapi-fetch client for `Paths` with the mall APIs' conventions.
 *
 * @throws RangeError when the API accepts HTTPS only and `baseUrl` is plain `http://` to a host
 *   that is not a loopback address, unless `allowInsecureHttp` is set.
 */
export function assembleApiClient<Paths extends {}, ClientThrows extends boolean>(
  parts: ApiClientParts,
): ApiClient<Paths, ClientThrows> {
  const { onEvent, operationIds } = parts;
  const { protocol, hostname } = new URL(parts.baseUrl);
  if (parts.httpsOnly && protocol === 'http:' && !loopback.test(hostname) && !parts.allowInsecureHttp)
    throw new RangeError(
      `${parts.baseUrl}: this API accepts HTTPS only (allowInsecureHttp sends credentials anyway)`,
    );
  const operationId = (method: string, path: string | undefined) =>
    path === undefined ? undefined : operationIds[path]?.[method];
  const common = {
    fetch: parts.fetch,
    timeout: parts.timeout,
    onEvent:
      onEvent &&
      ((event: SendEvent) => onEvent({ ...event, operationId: operationId(event.method, event.path) })),
  };
  const sender: RequestSender & { lastReport?: () => LimitReport | undefined } =
    parts.rateLimit === false
      ? createRequestSender({
          ...common,
          rateLimitRetries: 0,
          maxRetries: parts.maxRetries,
          backoff: parts.retryBackoff,
        })
      : createModelScheduler(parts.api, {
          ...common,
          key: parts.rateLimitKey,
          failureRetries: parts.maxRetries,
          failureBackoff: parts.retryBackoff,
          ...parts.rateLimit,
        });
  const client = createClient<Paths>({
    baseUrl: parts.baseUrl,
    querySerializer: commaListQuery,
    fetch: sender.fetch as typeof globalThis.fetch,
    headers: { 'User-Agent': parts.userAgent, ...parts.headers },
  });
  client.use(parts.auth, sender);
  const calls = wrapCalls<Paths, ClientThrows>(client, {
    throwOnError: parts.throwOnError ?? false,
    operationId,
    timingOf: sender.timingOf,
  });
  return Object.assign(calls, { rateLimit: () => sender.lastReport?.() }) as never;
}
