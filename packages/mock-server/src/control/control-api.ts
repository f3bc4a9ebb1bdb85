// The control API of the mocks, for tests: under `/__mock/` on every port, described by
// specs/control, run as the `control` branch of each mock API's stage list and routed and validated
// as the APIs' are; the answer is the operation's typed task (control-handlers.ts). Bad input is a
// 400, 413 or 422 and changes nothing; an unreachable sandbox store answers 503 and changes nothing.
import { StoreUnavailableError } from '@mall-api/mall-state';
import { type ApiSpecs, loadSpec } from '@mall-api/spec-model';
import type { Violation } from '../http/error-envelope.js';
import type { MockMalls } from '../malls/mock-malls.js';
import { type Arrival, queryRecord, type Routing } from '../pipeline/phases.js';
import { errorReply, type Reply, violationsReply } from '../pipeline/reply.js';
import { type Pipeline, pipeline } from '../pipeline/stage.js';
import { readBody } from '../stages/read-body.js';
import { type RequestValidator, requestValidatorCompiler } from '../validation/request-validator.js';
import { type ControlAccess, controlGuard, defaultControlBodyLimit } from './control-guard.js';
import { controlHandlers } from './control-handlers.js';

/** The prefix of every control path. */
export const controlPrefix = '/__mock/';

/** Whether a request is for the control API. */
export const isControlRequest = ({ request }: Arrival): boolean =>
  request.url?.startsWith(controlPrefix) === true;

/** A control task called with a validated call's loosely typed parts. */
type Task = (call: { mallId: string } & Record<'path' | 'query' | 'body', unknown>) => Reply | Promise<Reply>;

/** The control operation a request addresses: its validator and its task. */
interface ControlRouting extends Routing {
  readonly validate: RequestValidator;
  readonly task: Task;
}

/**
 * Creates the control branch of a mock API's stage list.
 * @param specs the spec of every API the mocks serve: fault and journal filters may name their operations
 * @param publicHosts the server's public host names, which the control guard admits as `Host`
 */
export async function createControlBranch(
  malls: MockMalls,
  specs: ApiSpecs,
  access: ControlAccess = {},
  publicHosts: readonly string[] = [],
): Promise<Pipeline<Arrival, never>> {
  const spec = await loadSpec('control');
  const compile = requestValidatorCompiler(spec);
  // The validator of each operation checks a call against the document the tasks' types are
  // generated from: past it, a call has the types its task declares.
  const tasks = new Map(Object.entries(controlHandlers(malls, specs, spec)) as [string, Task][]);
  const operations = new Map(
    spec.operations.flatMap((operation) => {
      const task = tasks.get(operation.operationId);
      return task ? [[operation.operationId, { validate: compile(operation), task }] as const] : [];
    }),
  );
  const guard = controlGuard(access, publicHosts);

  return pipeline<Arrival>()
    .check({ name: 'control-guard', run: ({ request }) => guard(request) })
    .step<ControlRouting>({
      name: 'control-route',
      run: ({ method, path }) => {
        const route = spec.route(method, path);
        const operation = route && operations.get(route.operation.operationId);
        return route && operation
          ? { route, ...operation }
          : errorReply(404, `No control operation at ${method} ${path}.`);
      },
    })
    .step(readBody(access.maxBodyBytes ?? defaultControlBodyLimit))
    .step({
      name: 'control-checks',
      run: ({ route, validate, url, request, body }) => {
        const query = queryRecord(url.searchParams);
        const checked = validate({
          pathParameters: route.pathParameters,
          query,
          headers: request.headers,
          body,
        });
        const known = new Set(route.operation.parameters.filter((p) => p.in === 'query').map((p) => p.name));
        const violations = [
          ...checked.violations,
          ...Object.keys(query)
            .filter((name) => !known.has(name))
            .map((name): Violation => ({ location: 'query', name, message: 'is not a known parameter' })),
        ];
        return violations.length === 0
          ? { body, parameters: checked.parameters }
          : violationsReply(violations);
      },
    })
    .check({
      // A change puts its mall in use (and may drop the least recently used) before it is made, so
      // no drop takes the mall under it.
      name: 'mall-in-use',
      run: async ({ method, parameters: { path } }) => {
        if ((method === 'POST' || method === 'PUT') && typeof path.mall === 'string')
          await malls.touch(path.mall);
        return undefined;
      },
    })
    .end({
      name: 'control-answer',
      run: async ({ task, parameters: { path, query }, body }) => {
        try {
          return await task({ mallId: String(path.mall ?? ''), path, query, body });
        } catch (error) {
          if (!(error instanceof StoreUnavailableError)) throw error;
          return errorReply(503, 'The sandbox store is unavailable; nothing was changed. Try again shortly.');
        }
      },
    });
}
