// The answer stage of a request whose answer a `lost-answer` fault takes (the faults stage noted
// how): the request is answered as usual — its writes commit, at once or once the store has
// committed them — and then the client gets a dropped connection or a 504 instead, while the reply
// keeps the status the mall answered with, for the journal. Every other request's answer passes
// through untouched.
import type { AnswerLoss } from '@mall-api/mall-state';
import { errorReply, type Reply } from '../pipeline/reply.js';
import type { Final } from '../pipeline/stage.js';
import type { Faulted } from './faults.js';

/** What the client gets instead of `answered`. */
function lost(answered: Reply, by: AnswerLoss): Reply {
  const lostAnswer = { status: answered.status, by };
  return by === 'drop'
    ? { status: 0, headers: {}, body: undefined, disposition: 'drop', lostAnswer }
    : {
        ...errorReply(504, 'The answer was lost on its way (a lost-answer fault of the mock’s control API).'),
        lostAnswer,
      };
}

/** The answer stage `answer`, losing the answer of a request the faults stage marked. */
export function losingAnswers<Needs>(answer: Final<Needs>): Final<Needs & Faulted> {
  return {
    name: answer.name,
    run(phase) {
      const answered = answer.run(phase);
      const by = phase.answerLoss;
      if (by === undefined) return answered;
      return answered instanceof Promise ? answered.then((reply) => lost(reply, by)) : lost(answered, by);
    },
  };
}
