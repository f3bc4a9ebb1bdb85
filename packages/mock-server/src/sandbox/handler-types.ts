// The shape of a sandbox request handler: the front layer has already authenticated, limited,
// scoped and validated the request, and hands over its operationId's handler the path
// parameters, the query and the parsed body; the handler answers a status and a body, or throws
// a SandboxError that the front layer turns into the API's error envelope.
import type { Query } from './list-query.js';

/** What a sandbox handler receives. */
export interface SandboxRequest {
  readonly pathParameters: Readonly<Record<string, string>>;
  readonly query: Query;
  readonly body: unknown;
  /** The mall of the caller's access token (admin and analytics). */
  readonly mallId: string | undefined;
}

/** What a sandbox handler answers. */
export interface SandboxReply {
  readonly status: number;
  readonly body: unknown;
}

/** Answers one operation from the sandbox's data. */
export type SandboxHandler = (request: SandboxRequest) => SandboxReply;

/** Handlers by operationId. */
export type SandboxHandlers = Readonly<Record<string, SandboxHandler>>;
