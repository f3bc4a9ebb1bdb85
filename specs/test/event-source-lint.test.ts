// The `mall/event-source` rule (specs/lint/event-source.js) holds an event's `x-emitted-by` to its
// shape and to write operations of the document's paths: the sandbox reports exactly those writes
// with the event. The admin document's declarations pass (the lint run of the specs checks them).
import { describe, expect, it } from 'vitest';
import { eventSourceProblems } from '../lint/event-source.js';

const writes = new Set(['createProduct', 'deleteProduct']);

describe('x-emitted-by', () => {
  it('accepts write operations of the paths with a description', () => {
    expect(eventSourceProblems({ operations: ['createProduct'], description: 'Sent.' }, writes)).toEqual([]);
  });

  it('names an operation that is no write of the paths', () => {
    expect(
      eventSourceProblems({ operations: ['getProduct', 'deleteProduct'], description: 'Sent.' }, writes),
    ).toEqual([
      'x-emitted-by.operations: getProduct is not a write operation (post, put, patch, delete) of the paths.',
    ]);
  });

  it('refuses a declaration without operations, without a description, or not an object', () => {
    expect(eventSourceProblems({ operations: [], description: 'Sent.' }, writes)).toHaveLength(1);
    expect(eventSourceProblems({ operations: ['createProduct'] }, writes)).toEqual([
      'x-emitted-by.description says what the sandbox sends.',
    ]);
    expect(eventSourceProblems(['createProduct'], writes)).toHaveLength(1);
  });
});
