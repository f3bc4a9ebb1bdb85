// The metrics of one mock process for Prometheus (prom-client), served as `/__metrics` on every
// mock port to the callers the control guard admits. Labels are bounded: an operation is an
// operation id of the spec (`none` for a path that addresses none), never a raw path. Counting a
// request costs a counter and a histogram update; the gauges are read at scrape time (a store outage
// leaves them at their last value). With `--workers N` each worker keeps its own (a scrape sees the
// worker that took it).
import type { IncomingMessage } from 'node:http';
import { StoreUnavailableError } from '@mall-api/mall-state';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { ControlAccess } from '../control/control-guard.js';
import { controlGuard } from '../control/control-guard.js';
import type { MockMalls } from '../malls/mock-malls.js';
import type { Arrival } from '../pipeline/phases.js';
import type { Reply } from '../pipeline/reply.js';
import { type Pipeline, pipeline } from '../pipeline/stage.js';
import type { ReadinessCheck } from '../stages/health.js';

/** The path the metrics answer at. */
export const metricsPath = '/__metrics';

/** The metrics of one process, shared by the APIs it serves. */
export interface MockMetrics {
  /** Counts one answered request of an API (`operationId` null: the path addressed no operation). */
  observe(api: string, operationId: string | null, status: number, seconds: number): void;
  /** Counts a request refused because a store was unavailable. */
  storeUnavailable(api: string): void;
  /** The metrics in Prometheus's text format, and its content type. */
  scrape(): Promise<{ readonly contentType: string; readonly text: string }>;
}

/** What the gauges read at scrape time. */
export interface MetricSources {
  readonly malls: MockMalls;
  /** Whether the stores shared with other replicas answer (absent: the process shares none). */
  readonly storesReady?: ReadinessCheck | undefined;
}

/**
 * Runs a gauge's read; a store that cannot be reached leaves the gauge at its last value (the
 * outage shows in `mall_api_stores_up`), any other failure fails the scrape.
 */
async function readWhileUp(read: () => Promise<void>): Promise<void> {
  try {
    await read();
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) throw error;
  }
}

/** Creates the metrics of one process over its malls. */
export function createMockMetrics({ malls, storesReady }: MetricSources): MockMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'mall_api_requests_total',
    help: 'Requests answered by the mock APIs, by API, operation id and status.',
    labelNames: ['api', 'operation', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'mall_api_request_duration_seconds',
    help: 'Time from a request’s arrival to its answer, by API and operation id.',
    labelNames: ['api', 'operation'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const storeErrors = new Counter({
    name: 'mall_api_store_unavailable_total',
    help: 'Requests answered 503 because a store (Redis, PostgreSQL) could not be reached, by API.',
    labelNames: ['api'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'mall_api_malls_in_use',
    help: 'Malls in use (idle ones dropped first).',
    registers: [registry],
    async collect() {
      await readWhileUp(async () => this.set((await malls.mallIds()).length));
    },
  });
  new Gauge({
    name: 'mall_api_journal_bytes',
    help: 'Estimated bytes the request journals of every mall hold together.',
    registers: [registry],
    async collect() {
      await readWhileUp(async () => this.set(await malls.journal.bytes()));
    },
  });
  const { sandbox } = malls;
  if (sandbox)
    new Gauge({
      name: 'mall_api_sandbox_records',
      help: 'Records the sandbox malls this process holds keep, by table.',
      labelNames: ['table'] as const,
      registers: [registry],
      async collect() {
        for (const [table, count] of Object.entries(await sandbox.heldRecords())) this.set({ table }, count);
      },
    });
  if (storesReady)
    new Gauge({
      name: 'mall_api_stores_up',
      help: 'Whether the stores shared with other replicas answer (1) or not (0).',
      registers: [registry],
      async collect() {
        this.set((await storesReady().catch(() => false)) ? 1 : 0);
      },
    });
  // The series of each API, operation and status, looked up once: later requests skip prom-client's
  // label hashing (the request path's cost).
  const series = new Map<string, { count: () => void; time: (seconds: number) => void }>();
  return {
    observe(api, operationId, status, seconds) {
      const key = `${api} ${operationId} ${status}`;
      let found = series.get(key);
      if (!found) {
        const operation = operationId ?? 'none';
        const counter = requests.labels(api, operation, String(status));
        const histogram = latency.labels(api, operation);
        found = { count: () => counter.inc(), time: (value) => histogram.observe(value) };
        series.set(key, found);
      }
      found.count();
      found.time(seconds);
    },
    storeUnavailable: (api) => storeErrors.labels(api).inc(),
    scrape: async () => ({ contentType: registry.contentType, text: await registry.metrics() }),
  };
}

/** Whether a request is for the metrics. */
export const isMetricsRequest = ({ request }: Arrival): boolean =>
  (request.url ?? '').split('?')[0] === metricsPath;

/**
 * The metrics as a branch of a mock API's stage list (it takes {@link isMetricsRequest}'s): the
 * control API's guard, then the scrape.
 */
export function metricsBranch(
  metrics: MockMetrics,
  access: ControlAccess = {},
  publicHosts: readonly string[] = [],
): Pipeline<Arrival, never> {
  const guard = controlGuard(access, publicHosts);
  return pipeline<Arrival>()
    .check({ name: 'metrics-guard', run: ({ request }: { request: IncomingMessage }) => guard(request) })
    .end({
      name: 'metrics',
      run: async (): Promise<Reply> => {
        const { contentType, text } = await metrics.scrape();
        return {
          status: 200,
          headers: { 'content-type': contentType, 'cache-control': 'no-store' },
          body: text,
        };
      },
    });
}
