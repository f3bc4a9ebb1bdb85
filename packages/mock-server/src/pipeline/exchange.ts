// The one request object every stage reads: the request parsed once — method, path, the API's
// query (without the mock's own `__*` parameters), the response preference, the mall the host
// names and the operation the path routes to — plus the facts stages add on the way (the caller,
// the rate-limit headers, the body, the converted parameters). Parsing has no side effects.
import type { IncomingMessage } from 'node:http';
import type { Route, SpecModel } from '@mall-api/spec-model';
import type { ApiProfile } from '../api-profiles.js';
import type { Authentication } from '../authentication.js';
import { defaultMallId, mallFromHost, mallFromPath } from '../mall-address.js';
import { type ResponsePreference, readPreference } from '../preferences.js';

/** Parameter values converted to what their schemas describe (numbers, booleans, arrays). */
export interface ConvertedParameters {
  readonly path: Readonly<Record<string, unknown>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly header: Readonly<Record<string, unknown>>;
}

/** A request on its way through the stages. */
export interface Exchange {
  readonly api: ApiProfile;
  readonly request: IncomingMessage;
  readonly method: string;
  /** The request URL as sent (the OAuth endpoints read it whole). */
  readonly url: URL;
  readonly path: string;
  /** The API's query parameters (the mock's own `__code` / `__example` removed). */
  readonly query: URLSearchParams;
  readonly preference: ResponsePreference;
  /** The mall the host or the per-mall base URL names, if any. */
  readonly namedMall: string | undefined;
  /** The named mall, else the demo mall (where an OAuth authorization is for). */
  readonly hostMall: string;
  /** The operation the method and path route to, if any. */
  readonly route: Route | undefined;
  /** Set by `identifyCaller`. */
  caller?: Authentication;
  /** Set by `rateLimit`: the headers every answer carries. */
  limitHeaders: Record<string, string>;
  /** Set by `readBody` for operations that take one. */
  body?: unknown;
  /** Set by `validateRequest`. */
  parameters?: ConvertedParameters;
  /** Set by `apiVersion` (APIs with date versions): the described version that answers. */
  apiVersion?: string;
}

/** A header's value as one string (repeated headers joined as HTTP joins them). */
export const headerValue = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value.join(', ') : value;

/** Parses a request once for the stages. */
export function parseExchange(api: ApiProfile, spec: SpecModel, request: IncomingMessage): Exchange {
  const url = new URL(request.url ?? '/', 'http://mock.local');
  const perMall = mallFromPath(url.pathname);
  url.pathname = perMall.path;
  const namedMall = perMall.mallId ?? mallFromHost(request);
  const method = (request.method ?? 'GET').toUpperCase();
  const { preference, apiQuery } = readPreference(headerValue(request.headers.prefer), url.searchParams);
  return {
    api,
    request,
    method,
    url,
    path: url.pathname,
    query: apiQuery,
    preference,
    namedMall,
    hostMall: namedMall ?? defaultMallId,
    route: spec.route(method, url.pathname),
    limitHeaders: {},
  };
}

/** The mall a request is for: the one it names, else its token's, else the demo mall. */
export const mallOf = (exchange: Exchange): string =>
  exchange.namedMall ?? (exchange.caller?.ok ? exchange.caller.principal.mallId : undefined) ?? defaultMallId;

/** The query as a record: one string per parameter, or every value of a repeated one. */
export function queryRecord(query: URLSearchParams): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = {};
  for (const key of new Set(query.keys())) {
    const values = query.getAll(key);
    record[key] = values.length === 1 ? (values[0] ?? '') : values;
  }
  return record;
}
