// A write the runner expects to be refused is sent between two reads of what it addresses; a
// server that refuses it in words but changes the resource anyway is reported.
import type { Answer, AnswerChecks } from '@mall-api/mock-server/answer-checks';
import { createSpecModel } from '@mall-api/spec-model';
import { describe, expect, it } from 'vitest';
import type { ConformanceClient, Outgoing } from './conformance-client.js';
import { readBackOf, sendRefusedWrite } from './refused-writes.js';
import type { CheckContext } from './request-checks.js';

const model = createSpecModel({
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: {
    '/things/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' }, example: 3 }],
      get: { operationId: 'getThing', responses: { '200': { description: 'ok' } } },
      put: { operationId: 'updateThing', responses: { '200': { description: 'ok' } } },
    },
  },
});

/** A server holding one name per thing, which answers every write 401 and stores it or not. */
function contextOf(storesAnyway: boolean): { context: CheckContext; sent: string[] } {
  const names: Record<string, string> = { '3': 'old', '4': 'other' };
  const sent: string[] = [];
  const client: ConformanceClient = {
    sent: 0,
    forbiddenScopes: undefined,
    sleep: async () => {},
    has: () => true,
    async send(request: Outgoing): Promise<Answer> {
      const id = String(request.parts.path.id);
      sent.push(`${request.operation.method} ${id}`);
      if (request.operation.method === 'get')
        return { status: 200, headers: new Headers(), body: { thing: { name: names[id] ?? null } } };
      if (storesAnyway) names[id] = 'new';
      return { status: 401, headers: new Headers(), body: { error: {} } };
    },
  };
  const answers = { problems: () => [] } as unknown as AnswerChecks;
  return { context: { model, client, answers, seed: 1 }, sent };
}

const update = model.operation('updateThing');
if (!update) throw new Error('no updateThing');
const write: Outgoing = { operation: update, parts: { path: { id: 4 }, query: {} }, body: { name: 'new' } };

describe('refused writes', () => {
  it('reads a write back through the GET of its path, with the path parameters of the write', async () => {
    const { context, sent } = contextOf(false);
    expect(readBackOf(context, update)?.operationId).toBe('getThing');
    const { answer, problems } = await sendRefusedWrite(context, write);
    expect(answer.status).toBe(401);
    expect(problems).toEqual([]);
    expect(sent).toEqual(['get 4', 'put 4', 'get 4']);
  });

  it('reports a refused write that changed the resource anyway', async () => {
    const { context } = contextOf(true);
    const { problems } = await sendRefusedWrite(context, write);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('after the refused updateThing');
  });
});
