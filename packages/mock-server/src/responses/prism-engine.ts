// Prism's HTTP engine embedded with a silent logger: it picks the documented response of an
// operation, honouring a requested status or example. It neither validates (requests are checked
// by the front layer's compiled validators before any response is chosen) nor authenticates,
// rate-limits or formats errors. The build uses it to prepare responses; at run time it is only
// loaded for a response that was not prepared.
import { createLogger } from '@stoplight/prism-core';
import { createInstance, getHttpOperationsFromSpec, type IHttpConfig } from '@stoplight/prism-http';
import type { IHttpOperation } from '@stoplight/types';
import * as E from 'fp-ts/lib/Either.js';
import type { ResponsePreference } from './preferences.js';

/** The request as Prism sees it. */
export interface EngineRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  body?: unknown;
}

/** What the engine decided: a documented response, or no operation (or response) for the request. */
export type EngineResult =
  | { kind: 'response'; status: number; headers: Record<string, string>; body: unknown }
  | { kind: 'no-route' };

/** A Prism instance bound to one API's operations. */
export interface PrismEngine {
  /** Picks the documented response for the request and preference. */
  handle(request: EngineRequest, preference: ResponsePreference): Promise<EngineResult>;
}

const baseConfig: IHttpConfig = {
  mock: { dynamic: false },
  checkSecurity: false,
  validateRequest: false,
  validateResponse: false,
  errors: false,
  upstreamProxy: undefined,
  isProxy: false,
};

/** Builds the engine for a bundled OpenAPI document, which it leaves unchanged. */
export async function createPrismEngine(document: object): Promise<PrismEngine> {
  // Prism's reader replaces references in the document it is given: it gets a copy, so the spec
  // model the mock was compiled from keeps its `$ref`s.
  const operations: IHttpOperation[] = await getHttpOperationsFromSpec(structuredClone(document));
  const logger = createLogger('mall-api-mock', { enabled: false });
  const prism = createInstance(baseConfig, { logger });
  return {
    async handle(request, preference) {
      // Prism treats an undefined code or example as none asked for.
      const mock = { dynamic: false, code: preference.code, exampleKey: preference.example };
      const config: IHttpConfig = { ...baseConfig, mock };
      const outcome = await prism.request(
        {
          method: request.method.toLowerCase() as 'get',
          url: { path: request.path, query: request.query },
          headers: request.headers,
          body: request.body,
        },
        operations,
        config,
      )();
      if (E.isLeft(outcome)) {
        const error = outcome.left as Error & { status?: number };
        if (error.status === 404 || error.status === 405) return { kind: 'no-route' };
        throw error;
      }
      const { output } = outcome.right;
      return {
        kind: 'response',
        status: output.statusCode,
        headers: output.headers ?? {},
        body: output.body,
      };
    },
  };
}
