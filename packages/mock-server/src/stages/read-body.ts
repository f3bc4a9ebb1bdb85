// Stage: reads and parses the body of an operation that declares one (JSON, or a form for the
// OAuth token endpoint) within the API's body limit: over it is a 413 before the rest is read; a
// body that is not JSON or not parseable is a 400. Operations without a body ignore whatever
// Content-Type a client sends with them, and their bodies are never read.
import { readJsonBody } from '../http/request-body.js';
import type { ReadBody, Routed } from '../pipeline/phases.js';
import { bodyFailureReply } from '../pipeline/reply.js';
import type { Step } from '../pipeline/stage.js';

/** The default limit of an API request body: 1 MiB. */
export const defaultApiBodyLimit = 1024 * 1024;

/** Creates the stage with the API's body limit in bytes. */
export function readBody(limitBytes: number = defaultApiBodyLimit): Step<Routed, ReadBody> {
  return {
    name: 'read-body',
    async run(phase) {
      const { bodyMediaTypes } = phase.route.operation;
      if (bodyMediaTypes.length === 0) return undefined;
      const parsed = await readJsonBody(phase.request, bodyMediaTypes, limitBytes);
      return parsed.ok ? { body: parsed.value } : bodyFailureReply(parsed);
    },
  };
}
