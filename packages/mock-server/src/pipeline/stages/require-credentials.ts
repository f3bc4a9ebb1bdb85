// Stage: a caller whose credentials were missing or wrong gets 401 with the reason
// (`identifyCaller` worked it out; the message never repeats what was sent); an accepted one
// passes on as the principal the later stages read.

import { requestRuleNames } from '../../api-coverage/request-rules.js';
import type { Authorization, Identified } from '../phases.js';
import { errorReply } from '../reply.js';
import type { Step } from '../stage.js';

/** The stage. */
export const requireCredentials: Step<Identified, Authorization> = {
  name: 'require-credentials',
  run: (phase) =>
    phase.caller.ok
      ? { principal: phase.caller.principal }
      : { ...errorReply(401, phase.caller.message), refusedBy: [requestRuleNames.credentials] },
};
