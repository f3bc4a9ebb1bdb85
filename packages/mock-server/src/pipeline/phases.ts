// The phases a request goes through on its way to an answer, each a narrower type than the one
// before: an `Arrival` (the request parsed once, without side effects), `Identified` (caller and
// mall), `Metered` (mall in use, rate-limit headers), `Routed` (an operation) and `Validated` (body
// and converted parameters). A stage says which facts it needs and which it adds (stage.ts), so one
// that needs a route cannot run before routing.
import type { IncomingMessage } from 'node:http';
import type { Route, SpecModel } from '@mall-api/spec-model';
import { defaultMallId, mallFromHost, mallFromPath } from '../http/mall-address.js';
import type { ApiProfile } from '../identity/api-profiles.js';
import type { Authentication, Principal } from '../identity/authentication.js';
import { type ResponsePreference, readPreference } from '../responses/preferences.js';

/** Parameter values converted to what their schemas describe (numbers, booleans, arrays). */
export interface ConvertedParameters {
  readonly path: Readonly<Record<string, unknown>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly header: Readonly<Record<string, unknown>>;
}

/** What the response preference decides, once, for every stage. */
export interface Mode {
  /** The caller asked for a documented response: it comes from the spec's examples, never the sandbox or the authority. */
  readonly documented: boolean;
  /** The documented response asked for is an error (code 400 or more): the request's checks are skipped, so QA always gets it. */
  readonly documentedError: boolean;
}

/** A request as it arrives, parsed once. */
export interface Arrival {
  readonly api: ApiProfile;
  readonly request: IncomingMessage;
  readonly method: string;
  /** The request URL as sent (the OAuth endpoints read it whole). */
  readonly url: URL;
  readonly path: string;
  /** The API's query parameters (the mock's own `__code` / `__example` removed). */
  readonly query: URLSearchParams;
  readonly preference: ResponsePreference;
  readonly mode: Mode;
  /** The mall the host or the per-mall base URL names, if any. */
  readonly namedMall: string | undefined;
  /** The operation the method and path address, if any (`knownOperation` refuses a request without one). */
  readonly route: Route | undefined;
}

/** Who is calling and which mall the request is for: the one it names, else its token's, else the demo mall. */
export interface Identity {
  readonly caller: Authentication;
  readonly mallId: string;
}

/**
 * An authenticated caller's mall marked in use if it was on the roster already (true), or not
 * (false: it is added once the request has passed every check); false for other callers.
 */
export interface MallUse {
  readonly listed: Promise<boolean>;
}

/** Whether a request only reads (GET, HEAD): it loses nothing to a drop of its mall. */
export const onlyReads = (method: string): boolean => method === 'GET' || method === 'HEAD';

/**
 * A read's mark of its mall in use, still under way: a GET or HEAD does not wait for it before its
 * work (a read loses nothing to a drop), only before it is answered, with its journal entry, so on
 * Redis both leave in one write (the faults stage).
 */
export interface PendingMark {
  readonly marked?: Promise<unknown>;
}

/** The rate-limit headers every answer carries. */
export interface Metering {
  readonly limitHeaders: Readonly<Record<string, string>>;
}

/** A caller whose credentials were accepted. */
export interface Authorization {
  readonly principal: Principal;
}

/** The operation the request addresses. */
export interface Routing {
  readonly route: Route;
}

/** The request body, read and parsed (absent for operations without one). */
export interface ReadBody {
  readonly body?: unknown;
}

/** The described version that answers (APIs with date versions; absent when none was chosen). */
export interface Versioned {
  readonly apiVersion?: string;
}

/** The request's parameters converted and its body reconciled with the path. */
export interface Checked {
  readonly body: unknown;
  readonly parameters: ConvertedParameters;
}

/** A request whose caller and mall are known. */
export type Identified = Arrival & Identity;
/** An identified request whose mall was marked in use, counted against the rate limit. */
export type Metered = Identified & MallUse & Metering;
/** A request for a known operation. */
export type Routed = Arrival & Routing;
/** A routed request whose body was read and parameters checked. */
export type Validated = Routed & ReadBody & Versioned & Checked;

/** Whatever a request had reached when it was answered (or failed): every later fact optional. */
export type Reached = Arrival &
  Partial<
    Identity & MallUse & PendingMark & Metering & Authorization & Routing & ReadBody & Versioned & Checked
  >;

/** A header's value as one string (repeated headers joined as HTTP joins them). */
export const headerValue = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value.join(', ') : value;

/** Parses a request once. */
export function parseArrival(api: ApiProfile, spec: SpecModel, request: IncomingMessage): Arrival {
  const url = new URL(request.url ?? '/', 'http://mock.local');
  const perMall = mallFromPath(url.pathname);
  // Setting the path parses the URL again: only a per-mall path changes it.
  if (perMall.mallId !== undefined) url.pathname = perMall.path;
  const method = (request.method ?? 'GET').toUpperCase();
  const { preference, apiQuery } = readPreference(headerValue(request.headers.prefer), url.searchParams);
  const code = preference.code;
  return {
    api,
    request,
    method,
    url,
    path: url.pathname,
    query: apiQuery,
    preference,
    mode: {
      documented: code !== undefined || preference.example !== undefined,
      documentedError: code !== undefined && code >= 400,
    },
    namedMall: perMall.mallId ?? mallFromHost(request),
    route: spec.route(method, url.pathname),
  };
}

/**
 * The mall a request reached with was for: the one `identifyCaller` decided, else (answered before
 * the caller was identified: a CORS preflight) the one it names, else the demo mall.
 */
export const mallReached = (reached: Reached): string => reached.mallId ?? reached.namedMall ?? defaultMallId;

/** The query as a record: one string per parameter, or every value of a repeated one. */
export function queryRecord(query: URLSearchParams): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = {};
  for (const key of new Set(query.keys())) {
    const values = query.getAll(key);
    record[key] = values.length === 1 ? (values[0] ?? '') : values;
  }
  return record;
}
