// @ts-check
// Redocly rule `mall/event-source` (of the plugin in mall-plugin.js): an event's `x-emitted-by`
// (specs/README.md, "Events") is `{operations, description, x-provenance}` whose `operations` name
// write operations (post, put, patch, delete) of the same document's `paths`, so the sandbox can
// report each one's committed write with the event. It checks the declaration, not what the
// sandbox does with it (the sandbox's tests do).

/** The methods whose operations write. */
const writeMethods = ['post', 'put', 'patch', 'delete'];

/** @param {unknown} value */
const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The problems of one `x-emitted-by`, as messages (none when it reads).
 * @param {unknown} declared
 * @param {ReadonlySet<string>} writes the operationIds of the document's write operations
 */
export function eventSourceProblems(declared, writes) {
  if (!isObject(declared)) return ['x-emitted-by is an object: {operations, description, x-provenance}.'];
  const fields = /** @type {Record<string, unknown>} */ (declared);
  const operations = fields.operations;
  if (!Array.isArray(operations) || operations.length === 0)
    return ['x-emitted-by.operations lists the operationIds whose writes send the event.'];
  const problems = operations
    .filter((id) => typeof id !== 'string' || !writes.has(id))
    .map(
      (id) =>
        `x-emitted-by.operations: ${String(id)} is not a write operation (${writeMethods.join(', ')}) of the paths.`,
    );
  if (typeof fields.description !== 'string')
    problems.push('x-emitted-by.description says what the sandbox sends.');
  return problems;
}

/** @type {() => Record<string, unknown>} */
export function EventSource() {
  return {
    Root: {
      /**
       * @param {Record<string, unknown>} root
       * @param {{ report: (problem: { message: string, location?: unknown }) => void, location: { child: (path: (string)[]) => unknown }, resolve: (node: unknown) => { node: unknown } }} ctx
       */
      leave(root, ctx) {
        const writes = new Set();
        const paths = isObject(root.paths) ? /** @type {Record<string, unknown>} */ (root.paths) : {};
        for (const item of Object.values(paths)) {
          const resolved = /** @type {Record<string, unknown>} */ (ctx.resolve(item).node ?? {});
          for (const method of writeMethods) {
            const operation = /** @type {Record<string, unknown> | undefined} */ (
              ctx.resolve(resolved[method]).node
            );
            if (operation && typeof operation.operationId === 'string') writes.add(operation.operationId);
          }
        }
        const webhooks = isObject(root.webhooks)
          ? /** @type {Record<string, unknown>} */ (root.webhooks)
          : {};
        for (const [name, item] of Object.entries(webhooks)) {
          const resolved = /** @type {Record<string, unknown>} */ (ctx.resolve(item).node ?? {});
          for (const [method, ref] of Object.entries(resolved)) {
            const operation = /** @type {Record<string, unknown> | undefined} */ (ctx.resolve(ref).node);
            if (!isObject(operation) || operation?.['x-emitted-by'] === undefined) continue;
            for (const message of eventSourceProblems(operation['x-emitted-by'], writes))
              ctx.report({ message, location: ctx.location.child(['webhooks', name, method]) });
          }
        }
      },
    },
  };
}
