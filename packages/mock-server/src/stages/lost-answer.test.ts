// The answer stage under a lost-answer fault, at the function: the answer is made first (a write
// answered later, as PostgreSQL's are, has committed before anything is lost), then the client gets a
// dropped connection or a 504 while the reply keeps the status the mall answered; without the
// fault the answer passes through as it is, at once when it was given at once.
import { describe, expect, it } from 'vitest';
import type { Reply } from '../pipeline/reply.js';
import type { Final } from '../pipeline/stage.js';
import { losingAnswers } from './lost-answer.js';

const created: Reply = { status: 201, headers: {}, body: { category: { category_no: 7 } } };
const committing = (log: string[]): Final<object> => ({
  name: 'answer',
  run: () =>
    new Promise<Reply>((resolve) =>
      setImmediate(() => {
        log.push('committed');
        resolve(created);
      }),
    ),
});

describe('losingAnswers', () => {
  it('drops the connection only after a later answer is made, keeping its status', async () => {
    const log: string[] = [];
    const stage = losingAnswers(committing(log));
    const reply = await stage.run({ answerLoss: 'drop' });
    expect(log).toEqual(['committed']);
    expect(reply).toMatchObject({ disposition: 'drop', lostAnswer: { status: 201, by: 'drop' } });
  });

  it('answers 504 with the envelope instead, and keeps the name of the stage it wraps', async () => {
    const stage = losingAnswers<object>({ name: 'answer', run: () => created });
    expect(stage.name).toBe('answer');
    const reply = (await stage.run({ answerLoss: 'gateway-timeout' })) as Reply;
    expect(reply).toMatchObject({ status: 504, lostAnswer: { status: 201, by: 'gateway-timeout' } });
    expect(reply.body).toMatchObject({
      error: { code: expect.any(String), message: expect.stringMatching(/lost/) },
    });
    expect(reply.disposition).toBeUndefined();
  });

  it('passes any other answer through as it is, at once when it was given at once', () => {
    expect(losingAnswers<object>({ name: 'answer', run: () => created }).run({})).toBe(created);
  });
});
