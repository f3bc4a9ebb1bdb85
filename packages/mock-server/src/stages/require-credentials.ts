// Stage: a caller whose credentials were missing or wrong gets 401 with the reason
// (`identifyCaller` worked it out; the message never repeats what was sent); an accepted one
// passes on as the principal the later stages read.

import type { Authorization, Identified } from '../pipeline/phases.js';
import { errorReply } from '../pipeline/reply.js';
import type { Step } from '../pipeline/stage.js';
import { requestRuleNames } from '../validation/request-rules.js';

/** The stage. */
export const requireCredentials: Step<Identified, Authorization> = {
  name: 'require-credentials',
  run: (phase) =>
    phase.caller.ok
      ? { principal: phase.caller.principal }
      : { ...errorReply(401, phase.caller.message), refusedBy: [requestRuleNames.credentials] },
};
