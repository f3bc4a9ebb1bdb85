// The bundled spec as the hooks read it: `$ref` resolution, the operation of a path template and
// method, its parameters, and the documented example and schema of its JSON request body.
// CommonJS, like the hooks that require it.

/**
 * Wraps a bundled OpenAPI document.
 * @param {Record<string, any>} spec the parsed bundled spec
 */
function createSpecModel(spec) {
  /** The node itself, or what its `$ref` chain points to. */
  const resolve = (node) => {
    let current = node;
    while (current && typeof current.$ref === 'string') {
      current = current.$ref
        .replace(/^#\//, '')
        .split('/')
        .reduce((n, k) => n?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], spec);
    }
    return current;
  };

  /** The operation of `method` on the path template, or undefined. */
  const operation = (template, method) => resolve(spec.paths[template]?.[method.toLowerCase()]);

  /** The operation's parameters, resolved. */
  const parametersOf = (op) => (op.parameters ?? []).map(resolve);

  const jsonBody = (op) => resolve(resolve(op.requestBody)?.content?.['application/json']);

  /** A fresh copy of the documented example of the operation's JSON request body, or undefined. */
  const requestExample = (op) => {
    const media = jsonBody(op);
    const example = media?.example ?? resolve(Object.values(media?.examples ?? {})[0])?.value;
    return example === undefined ? undefined : structuredClone(example);
  };

  /** The schema of the operation's JSON request body, or undefined. */
  const requestSchema = (op) => resolve(jsonBody(op)?.schema);

  return { spec, resolve, operation, parametersOf, requestExample, requestSchema };
}

module.exports = { createSpecModel };
