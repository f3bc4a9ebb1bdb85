// Prism's HTTP engine embedded with a silent logger: it validates a request against the bundled
// spec and picks the documented response (honouring a requested status or example). It does not
// authenticate, rate-limit or format errors; the front layer does that around it.
import { createLogger } from '@stoplight/prism-core';
import { createInstance, getHttpOperationsFromSpec, type IHttpConfig } from '@stoplight/prism-http';
import type { IHttpOperation } from '@stoplight/types';
import * as E from 'fp-ts/lib/Either.js';
import type { Violation } from './error-envelope.js';
import type { ResponsePreference } from './preferences.js';

/** The request as Prism sees it. */
export interface EngineRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  body?: unknown;
}

/** What the engine decided: a mocked response, request violations, or a routing miss. */
export type EngineResult =
  | { kind: 'response'; status: number; headers: Record<string, string>; body: unknown }
  | { kind: 'invalid'; violations: Violation[] }
  | { kind: 'no-route' };

/** A Prism instance bound to one API's operations. */
export interface PrismEngine {
  /**
   * Validates (unless told not to, or a documented error is asked for) and picks the documented
   * response for the request.
   */
  handle(
    request: EngineRequest,
    preference: ResponsePreference,
    options?: { validate?: boolean },
  ): Promise<EngineResult>;
}

interface PrismDiagnostic {
  path?: (string | number)[];
  message: string;
  severity: number;
}

const baseConfig: IHttpConfig = {
  mock: { dynamic: false },
  checkSecurity: false,
  validateRequest: true,
  validateResponse: false,
  errors: false,
  upstreamProxy: undefined,
  isProxy: false,
};

/** Turns one of Prism's validation diagnostics into a violation that names the parameter. */
export function toViolation(diagnostic: PrismDiagnostic): Violation {
  const [where, ...rest] = diagnostic.path ?? [];
  const location: Violation['location'] =
    where === 'query' || where === 'path' || where === 'header' ? where : 'body';
  const missing = /required property '([^']+)'/.exec(diagnostic.message)?.[1];
  const name = missing ?? (rest.length > 0 ? rest.map(String).join('.') : String(where ?? 'request'));
  const message = diagnostic.message
    .replace(/^Request (query|path|header) parameter \S+ /, '')
    .replace(/^Request body property \S+ /, '')
    .replace(/^must have required property '[^']+'$/, 'is required');
  return { location, name, message };
}

/** Builds the engine for a bundled OpenAPI document. */
export async function createPrismEngine(document: object): Promise<PrismEngine> {
  const operations: IHttpOperation[] = await getHttpOperationsFromSpec(document);
  const logger = createLogger('mall-api-mock', { enabled: false });
  const prism = createInstance(baseConfig, { logger });
  return {
    async handle(request, preference, options = {}) {
      const askedForError = preference.code !== undefined && preference.code >= 400;
      const config: IHttpConfig = {
        ...baseConfig,
        // A documented error asked for by QA is served as documented, whatever the request holds.
        validateRequest: options.validate ?? !askedForError,
        mock: {
          dynamic: false,
          ...(preference.code !== undefined ? { code: preference.code } : {}),
          ...(preference.example !== undefined ? { exampleKey: preference.example } : {}),
        },
      };
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
      const { output, validations } = outcome.right;
      const errors = (validations.input as PrismDiagnostic[]).filter((d) => d.severity === 0);
      if (errors.length > 0) {
        return { kind: 'invalid', violations: errors.map(toViolation) };
      }
      return {
        kind: 'response',
        status: output.statusCode,
        headers: output.headers ?? {},
        body: output.body,
      };
    },
  };
}
