// What the hooks read from the bundled spec, through @mall-api/spec-model: the operation of a path
// template and method, and the documented example and schema of its JSON request body.
import type { JsonObject, OperationEntry, SpecModel } from '@mall-api/spec-model';
import { bodyExample } from '../conformance/request-bodies.js';

/** The spec-model lookups the hooks and fixtures share. */
export interface SpecOperations {
  readonly model: SpecModel;
  /** The path templates of the document, in its order. */
  readonly templates: readonly string[];
  /** The operation of `method` on the path template, or undefined. */
  operationAt(template: string, method: string): OperationEntry | undefined;
  /** A fresh copy of the documented example of the operation's JSON request body, or undefined. */
  requestExample(operation: OperationEntry): unknown;
  /** The schema of the operation's JSON request body, resolved, or undefined. */
  requestSchema(operation: OperationEntry): JsonObject | undefined;
}

/** Builds the lookups over one spec model. */
export function specOperations(model: SpecModel): SpecOperations {
  const byTemplate = new Map(
    model.operations.map((entry) => [`${entry.method} ${entry.pathTemplate}`, entry]),
  );
  const paths = model.document.paths;
  return {
    model,
    templates: paths && typeof paths === 'object' && !Array.isArray(paths) ? Object.keys(paths) : [],
    operationAt: (template, method) => byTemplate.get(`${method.toLowerCase()} ${template}`),
    requestExample: (operation) => {
      const example = bodyExample(model, operation);
      return example === undefined ? undefined : structuredClone(example);
    },
    requestSchema: (operation) => model.resolveOptional(operation.bodySchema),
  };
}
