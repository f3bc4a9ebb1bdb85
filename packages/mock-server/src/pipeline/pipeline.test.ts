// The pipeline builder: stages run in the order they were added until one answers, a branch takes
// the requests its test picks, a stage that throws is reported with the phase reached, and the
// types keep the order — the `@ts-expect-error` lines below are checked by `tsc` (`npm run
// typecheck`), so a stage that needs a route or a principal cannot be placed before the stage that
// adds it.
import { loadSpec } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import { answer } from '../stages/answer.js';
import { knownOperation } from '../stages/known-operation.js';
import { readBody } from '../stages/read-body.js';
import { requireCredentials } from '../stages/require-credentials.js';
import { scope } from '../stages/scope.js';
import type { Arrival, Identified, Metered, Routed } from './phases.js';
import type { Reply } from './reply.js';
import { type Check, type Final, pipeline, StageFailure, type Step } from './stage.js';
import { fakeArrival } from './testing/fake-request.js';

const admin = await loadSpec('admin');
const arrival = (url = '/api/v2/admin/categories') => fakeArrival('admin', admin, { url });
const answering = (name: string, status = 204): Final<Arrival> => ({
  name,
  run: (): Reply => ({ status, headers: {}, body: undefined }),
});
const passing = (name: string, seen: string[]): Check<Arrival> => ({ name, run: () => void seen.push(name) });
const tagging: Step<Arrival, { readonly tag: string }> = { name: 'tag', run: () => ({ tag: 'added' }) };

describe('a pipeline', () => {
  it('stops at the first stage that answers, and says which one and what the request had reached', async () => {
    const seen: string[] = [];
    const built = pipeline<Arrival>()
      .check(passing('a', seen))
      .step(tagging)
      .check(answering('answers'))
      .check(passing('never', seen));
    const outcome = await built.run(arrival());
    expect(outcome.reply?.status).toBe(204);
    expect(outcome.reply && outcome.stage).toBe('answers');
    expect(outcome.reached).toMatchObject({ tag: 'added' });
    expect(seen).toEqual(['a']);
    expect(built.names).toEqual(['a', 'tag', 'answers', 'never']);
  });
  it('passes the last phase on when no stage answers', async () => {
    const outcome = await pipeline<Arrival>().step(tagging).run(arrival());
    if (outcome.reply) throw new Error(`answered ${outcome.reply.status}`);
    expect(outcome.reached.tag).toBe('added');
  });
  it('sends the requests a branch picks down the branch, and the others on', async () => {
    const built = pipeline<Arrival>()
      .branch(
        'oauth',
        (phase) => phase.path.startsWith('/api/v2/oauth/'),
        pipeline<Arrival>().end(answering('in-branch', 200)),
      )
      .end(answering('main'));
    expect((await built.run(arrival('/api/v2/oauth/token'))).stage).toBe('in-branch');
    expect((await built.run(arrival())).stage).toBe('main');
    expect(built.names).toEqual(['oauth', 'main']);
    const skipped = pipeline<Arrival>()
      .branchIf('oauth', () => true, undefined)
      .checkIf(undefined);
    expect(skipped.names).toEqual([]);
  });
  it('reports a stage that throws with its name, the phase reached and the cause', async () => {
    const cause = new Error('store down');
    const failing: Check<Arrival> = { name: 'failing', run: () => Promise.reject(cause) };
    const failure = await pipeline<Arrival>()
      .step(tagging)
      .check(failing)
      .run(arrival())
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StageFailure);
    expect(failure).toMatchObject({ stage: 'failing', cause, reached: { tag: 'added' } });
  });
});

describe('the order the types enforce', () => {
  it('refuses, at compile time, a stage placed before the one that adds what it needs', () => {
    const noAnswer = answer({
      runtime: Object.assign(() => Promise.reject(new Error('unused')), { compiled: () => undefined }),
    });
    const misplaced = () => {
      // @ts-expect-error read-body needs a route: it cannot run before known-operation.
      pipeline<Arrival>().step(readBody());
      // @ts-expect-error scope needs a principal: it cannot run before require-credentials.
      pipeline<Identified>().step(knownOperation).check(scope(new Map()));
      // @ts-expect-error require-credentials needs the caller: it cannot run before identify-caller.
      pipeline<Arrival>().step(requireCredentials);
      // @ts-expect-error the answer needs a validated request.
      pipeline<Metered & Routed>().end(noAnswer);
      // @ts-expect-error a tail that starts from a routed request cannot join before routing.
      pipeline<Metered>().join(pipeline<Metered & Routed>().step(readBody()));
    };
    // In order, the same stages type-check.
    const inOrder = () =>
      pipeline<Identified>()
        .step(requireCredentials)
        .step(knownOperation)
        .check(scope(new Map()))
        .step(readBody());
    expect(typeof misplaced).toBe('function');
    expect(inOrder().names).toEqual(['require-credentials', 'known-operation', 'scope', 'read-body']);
  });
});
