// A receiver of the sandbox's events for tests: a node:http server on a free loopback port that
// answers every POST with 200 (or what `answer` says), keeps each event with its headers, and
// hands them out with `next({ event_no, match })`, which waits for the first one not handed out yet
// that matches (the event number, and every attribute of `match` found with an equal value in the
// event's `resource`), failing after `timeoutMs`.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isDeepStrictEqual } from 'node:util';

/** The webhook key `startMock` registers its receiver with (sent as `X-API-Key`). */
export const testWebhookKey = 'sandbox-webhook-key';

/** One event as the receiver got it. */
export interface ReceivedEvent {
  readonly event_no: number;
  // biome-ignore lint/suspicious/noExplicitAny: a resource's attributes depend on the event
  readonly resource: Record<string, any>;
  readonly headers: IncomingHttpHeaders;
}

/** Which event `next` waits for. */
export interface EventFilter {
  readonly event_no?: number;
  /** Attributes the event's `resource` must hold, with equal values. */
  readonly match?: Readonly<Record<string, unknown>>;
  /** How long to wait, in ms (default 5,000). */
  readonly timeoutMs?: number;
}

/** A running receiver. */
export interface EventReceiver {
  readonly url: string;
  /** Every event received so far, in order. */
  readonly received: readonly ReceivedEvent[];
  /** The next event not handed out yet that `filter` matches; rejects after its timeout. */
  next(filter?: EventFilter): Promise<ReceivedEvent>;
  /** The status the receiver answers with from now on (default 200). */
  answer(status: number): void;
  close(): Promise<void>;
}

const matches = (event: ReceivedEvent, filter: EventFilter) =>
  (filter.event_no === undefined || event.event_no === filter.event_no) &&
  Object.entries(filter.match ?? {}).every(([name, value]) => isDeepStrictEqual(event.resource[name], value));

/** Starts a receiver on 127.0.0.1. */
export async function openEventReceiver(): Promise<EventReceiver> {
  const received: ReceivedEvent[] = [];
  const handedOut = new Set<ReceivedEvent>();
  const waiting = new Set<() => void>();
  let status = 200;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        received.push({ event_no: body.event_no, resource: body.resource ?? {}, headers: request.headers });
        for (const wake of waiting) wake();
      } catch {
        // not an event: answered like any other request, and not kept
      }
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'refused');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/events`,
    received,
    next(filter = {}) {
      return new Promise((resolve, reject) => {
        const look = () => {
          const found = received.find((event) => !handedOut.has(event) && matches(event, filter));
          if (!found) return false;
          handedOut.add(found);
          done();
          resolve(found);
          return true;
        };
        const timeoutMs = filter.timeoutMs ?? 5_000;
        const timer = setTimeout(() => {
          done();
          reject(
            new Error(
              `no event ${JSON.stringify({ ...filter, timeoutMs: undefined })} arrived within ${timeoutMs} ms`,
            ),
          );
        }, timeoutMs);
        const wake = () => void look();
        const done = () => {
          clearTimeout(timer);
          waiting.delete(wake);
        };
        if (!look()) waiting.add(wake);
      });
    },
    answer(next) {
      status = next;
    },
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
