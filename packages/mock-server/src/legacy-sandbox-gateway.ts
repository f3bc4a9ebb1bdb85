// Adapts the in-package sandbox (raw query, SandboxError exceptions) to the SandboxGateway the
// answer stage calls. Goes away when the sandbox moves to @mall-api/sandbox, whose handlers take
// converted parameters and return values.

import type { Sandbox } from './sandbox/sandbox.js';
import { SandboxError } from './sandbox/sandbox-error.js';
import type { SandboxGateway } from './sandbox-gateway.js';

/** The gateway over an in-package sandbox. */
export function legacySandboxGateway(sandbox: Sandbox): SandboxGateway {
  return {
    handles: (api, operationId) => sandbox.handlerFor(api, operationId) !== undefined,
    handle(call) {
      const handler = sandbox.handlerFor(call.api, call.operationId);
      if (!handler) throw new Error(`the sandbox has no handler for ${call.operationId}`);
      try {
        const pathParameters = Object.fromEntries(Object.entries(call.path).map(([k, v]) => [k, String(v)]));
        const { status, body } = handler({
          pathParameters,
          query: call.rawQuery,
          body: call.body,
          mallId: call.mallId,
        });
        return { kind: 'answer', status, body };
      } catch (error) {
        if (!(error instanceof SandboxError)) throw error;
        return {
          kind: 'refusal',
          status: error.status,
          message: error.message,
          violations: error.violations,
        };
      }
    },
  };
}
