// The control API's event operations (specs/control, tag Events) as tasks over the process's event
// delivery: a mall's receiver, a test send, a resend and the delivery log. Example mode has no
// events (409).

import type { MockMalls } from '../malls/mock-malls.js';
import { errorReply, type Reply, violationsReply } from '../pipeline/reply.js';
import type { ControlHandlers } from './control-calls.js';

type EventTasks = Pick<
  ControlHandlers,
  'updateWebhookReceiver' | 'createWebhookTest' | 'createWebhookResend' | 'listWebhookDeliveries'
>;

const exampleMode = () =>
  errorReply(409, 'The mocks run in example mode (--examples): no mall sends events.');
const queued: Reply = { status: 202, headers: {}, body: { queued: true } };

/** The event tasks over `malls`. */
export function eventControlHandlers(malls: MockMalls): EventTasks {
  return {
    updateWebhookReceiver: async ({ mallId, body }) => {
      if (!malls.events) return exampleMode();
      const receiver = { url: body.url, ...(body.key === undefined ? {} : { key: body.key }) };
      const problem = await malls.events.register(mallId, receiver);
      if (problem) return violationsReply([{ location: 'body', name: 'url', message: problem }]);
      return { status: 200, headers: {}, body: receiver };
    },
    createWebhookTest: async ({ mallId, body }) => {
      const events = malls.sandbox?.events;
      if (!events) return exampleMode();
      if (!events.eventNumbers().includes(body.event_no))
        return violationsReply([
          {
            location: 'body',
            name: 'event_no',
            message: `must be an event the admin API describes (${events.eventNumbers().join(', ')})`,
          },
        ]);
      return (await events.sendTest(mallId, body.event_no))
        ? queued
        : errorReply(404, `No mall ${mallId} exists.`);
    },
    listWebhookDeliveries: async ({ mallId, query }) => {
      if (!malls.events || !malls.sandbox) return exampleMode();
      await malls.events.dispatcher.idle();
      const wanted = Object.entries(query);
      const deliveries = (await malls.sandbox.events.deliveries(mallId)).filter((entry) =>
        wanted.every(([field, value]) => value === undefined || entry[field] === value),
      );
      return { status: 200, headers: {}, body: { deliveries } };
    },
    createWebhookResend: async ({ mallId, path }) => {
      const events = malls.sandbox?.events;
      if (!events) return exampleMode();
      return (await events.resend(mallId, path.log_id))
        ? queued
        : errorReply(404, `Mall ${mallId} has no delivery log entry ${path.log_id}.`);
    },
  };
}
