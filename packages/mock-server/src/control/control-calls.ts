// The control API's calls as types: one operation id of specs/control, a validated call of it (its
// mall, converted parameters and body, typed by the generated control types) and the table of one
// task per operation that control-handlers.ts fills.
import type { operations } from '@mall-api/specs/types/control';
import type { Reply } from '../pipeline/reply.js';

/** An operation id of the control API. */
export type ControlOperationId = keyof operations;

/** A validated call of operation `Id`: its mall and its converted parameters and body. */
export interface ControlCall<Id extends ControlOperationId> {
  readonly mallId: string;
  readonly path: NonNullable<operations[Id]['parameters']['path']>;
  readonly query: NonNullable<operations[Id]['parameters']['query']>;
  readonly body: operations[Id] extends { requestBody: { content: { 'application/json': infer Body } } }
    ? Body
    : undefined;
}

/** One task per control operation. */
export type ControlHandlers = {
  readonly [Id in ControlOperationId]: (call: ControlCall<Id>) => Reply | Promise<Reply>;
};
