// The call surface of a mall client: openapi-fetch's methods, each taking this repository's
// per-call options (`timeout`, `maxRetries`, `retryPost`, `throwOnError`) and typed by whether the
// call throws on an error status; and `wrapCalls`, which keeps that promise at run time: with
// `throwOnError` an error status becomes a `MallApiError`, and a timeout or a failed connection
// always does. The options reach the request sender as properties openapi-fetch copies from the
// init onto the `Request`. Not where retries or timeouts happen (see `@mall-api/rate-limit`).
import type { CallTiming } from '@mall-api/rate-limit';
import type { Client, FetchResponse, MaybeOptionalInit } from 'openapi-fetch';
import type { HttpMethod, MediaType, PathsWithMethod, RequiredKeysOf } from 'openapi-typescript-helpers';
import { type CallSite, statusError, transportError } from './errors.js';

/** Options one call may add to its init, next to `params`, `body`, `headers` and `signal`. */
export interface CallOptions {
  /** Ms one attempt may take until its response is read; overrides the client's `timeout`. */
  timeout?: number;
  /** Times this call is resent after a failure; overrides the client's `maxRetries`. */
  maxRetries?: number;
  /** Resend this POST after a failure too: only when sending it twice can do no harm. */
  retryPost?: boolean;
  /** Throw a `MallApiError` on an error status instead of returning `{ error }`; overrides the client's. */
  throwOnError?: boolean;
}

/** Whether a call with `Init` throws on an error status, given the client's default. */
type Throws<Init, ClientThrows extends boolean> = Init extends { throwOnError: true }
  ? true
  : Init extends { throwOnError: false }
    ? false
    : ClientThrows;

/** What a call resolves to: only the success branch of `Result` when it throws on error statuses. */
export type CallResult<Result, Init, ClientThrows extends boolean> =
  Throws<Init, ClientThrows> extends true ? Extract<Result, { data: unknown }> : Result;

type CallInit<I> = RequiredKeysOf<I> extends never ? [I?] : [I];
/** The operation `M` of `Path` (openapi-typescript's path items name every method). */
type Operation<Paths, Path extends keyof Paths, M extends HttpMethod> = Extract<
  Paths[Path][M & keyof Paths[Path]],
  // biome-ignore lint/suspicious/noExplicitAny: openapi-fetch's own operation constraint
  Record<string | number, any>
>;
type Init<Paths, Path extends keyof Paths, M extends HttpMethod> =
  | (NonNullable<MaybeOptionalInit<Paths[Path], M & keyof Paths[Path]>> & CallOptions)
  | Extract<MaybeOptionalInit<Paths[Path], M & keyof Paths[Path]>, undefined>;
/**
 * The one option of `I` openapi-fetch's response type reads. A call without init leaves `I` at its
 * constraint, a union with every fetch option; handing that whole union to `FetchResponse` gave
 * results that `Promise.all` over two calls could not reduce (TS2590).
 */
type ParseAsOf<I> = I extends { parseAs: infer P } ? { parseAs: P } : unknown;
/** What a call of `M` on `Path` with `I` resolves to. */
type Result<Paths, Path extends keyof Paths, M extends HttpMethod, I, ClientThrows extends boolean> = Promise<
  CallResult<FetchResponse<Operation<Paths, Path, M>, ParseAsOf<I>, MediaType>, I, ClientThrows>
>;

/** One HTTP method of a mall client, e.g. `GET`. */
export type MallMethod<Paths extends {}, M extends HttpMethod, ClientThrows extends boolean> = <
  Path extends PathsWithMethod<Paths, M>,
  I extends Init<Paths, Path, M>,
>(
  url: Path,
  ...init: CallInit<I>
) => Result<Paths, Path, M, I, ClientThrows>;

/**
 * An openapi-fetch client of `Paths` whose calls take {@link CallOptions}. `ClientThrows` is
 * `true` for a client created with `throwOnError: true`.
 */
export interface MallClient<Paths extends {}, ClientThrows extends boolean = false>
  extends Pick<Client<Paths>, 'use' | 'eject'> {
  request<M extends HttpMethod, Path extends PathsWithMethod<Paths, M>, I extends Init<Paths, Path, M>>(
    method: M,
    url: Path,
    ...init: CallInit<I>
  ): Result<Paths, Path, M, I, ClientThrows>;
  GET: MallMethod<Paths, 'get', ClientThrows>;
  PUT: MallMethod<Paths, 'put', ClientThrows>;
  POST: MallMethod<Paths, 'post', ClientThrows>;
  DELETE: MallMethod<Paths, 'delete', ClientThrows>;
  PATCH: MallMethod<Paths, 'patch', ClientThrows>;
  HEAD: MallMethod<Paths, 'head', ClientThrows>;
  OPTIONS: MallMethod<Paths, 'options', ClientThrows>;
}

/** What {@link wrapCalls} needs besides the client. */
export interface CallContext {
  /** The client-wide default of {@link CallOptions.throwOnError}. */
  readonly throwOnError: boolean;
  /** The spec's operationId of a method and path template. */
  readonly operationId: (method: string, path: string) => string | undefined;
  /** The timings of the call that ended in a response or error. */
  readonly timingOf: (outcome: unknown) => CallTiming | undefined;
}

const methods = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] as const;

/** Wraps the calls of `client` so they keep the promises of {@link MallClient}. */
export function wrapCalls<Paths extends {}, ClientThrows extends boolean>(
  client: Client<Paths>,
  context: CallContext,
): MallClient<Paths, ClientThrows> {
  const send = client.request as unknown as (
    method: string,
    url: string,
    init?: CallOptions,
  ) => Promise<{ error?: unknown; response: Response }>;
  const call = async (method: string, url: string, init?: CallOptions) => {
    const site: CallSite = { method, path: url, operationId: context.operationId(method, url) };
    let result: Awaited<ReturnType<typeof send>>;
    try {
      result = await send(method, url, init);
    } catch (error) {
      throw transportError(site, error, context.timingOf(error)) ?? error;
    }
    const { response } = result;
    if (!response.ok && (init?.throwOnError ?? context.throwOnError)) {
      throw statusError(site, response, result.error, context.timingOf(response));
    }
    return result;
  };
  const calls: Record<string, unknown> = {
    use: client.use,
    eject: client.eject,
    request: (method: string, url: string, init?: CallOptions) => call(method.toUpperCase(), url, init),
  };
  for (const method of methods) calls[method] = (url: string, init?: CallOptions) => call(method, url, init);
  return calls as unknown as MallClient<Paths, ClientThrows>;
}
