// @ts-check
// The event numbers of a client whose spec declares events (`src/generated/event-numbers.ts`): the
// `event_no` each event of the bundle's `webhooks` fixes (as `webhooksOf` reads them), in the order
// the spec lists them, so the client's delivery parser knows exactly the events the spec declares.
import { webhooksOf } from '@mall-api/spec-model';

/**
 * The text of `event-numbers.ts`, or undefined when the spec declares no events.
 * @param {import('@mall-api/spec-model').SpecModel} model
 */
export function eventNumbersModule(model) {
  const numbers = webhooksOf(model.document).map((event) => event.eventNo);
  if (numbers.length === 0) return undefined;
  return (
    `/** The event numbers (\`event_no\`) of the events the spec declares under \`webhooks\`. */\n` +
    `export const eventNumbers = ${JSON.stringify(numbers)} as const;\n`
  );
}
