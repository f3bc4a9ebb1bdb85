// Stage: reads and parses the body of an operation that declares one (JSON, or a form for the
// OAuth token endpoint); a body that is too large, not JSON or not parseable is a 400. Operations
// without a body ignore whatever Content-Type a client sends with them.
import { readJsonBody } from '../../request-body.js';
import { errorReply } from '../reply.js';
import type { Stage } from '../stage.js';

/** The stage. */
export const readBody: Stage = {
  name: 'read-body',
  async run(exchange) {
    const operation = exchange.route?.operation;
    if (!operation || operation.bodyMediaTypes.length === 0) return undefined;
    const parsed = await readJsonBody(exchange.request, operation.bodyMediaTypes);
    if (!parsed.ok) return errorReply(400, parsed.message);
    exchange.body = parsed.value;
    return undefined;
  },
};
