// @ts-check
// The operation methods of a client (`src/generated/methods.ts`), from its API's spec model: one
// method per operation the client's credentials call (the operations under the API's own security
// scheme; the OAuth endpoints belong to @mall-api/auth), placed in a tree named from the path
// below the prefix those operations share — `/api/v2/admin/products/{product_no}` with operationId
// `getProduct` becomes `products.get` — the verb being the operationId's first word (a last path
// segment equal to it, as in `products/count`, is not repeated). It writes the tree twice: as the
// client's `<Api>Methods` type over the `operations` type the client exports (client-kit's
// `OperationMethod`, or `PagedOperationMethod` for a list that pages with `offset`, whose `all`
// omits `offset` and the list's keyset cursor) and as the table `attachOperationMethods` reads:
// each leaf `'<method> <path>'`, and the one way the API's write bodies wrap their fields (one
// key, and every field any write body takes beside it: `shop_no`, which a write that takes no shop
// never receives, its method's type having no such field).
import { listEndpointsOf } from './list-keys.mjs';

/** @typedef {import('@mall-api/spec-model').SpecModel} SpecModel */
/** @typedef {import('@mall-api/spec-model').OperationEntry} Operation */
/** @typedef {{ key: string, beside: string[] }} Wrap */
/** @typedef {{ leaf: string, type: string }} Leaf */
/** @typedef {{ [name: string]: Leaf | Tree }} Tree */

/**
 * The security scheme names an operation (or the document) asks for.
 * @param {unknown} security
 */
const schemesOf = (security) =>
  JSON.stringify(
    (Array.isArray(security) ? security : []).flatMap((requirement) => Object.keys(requirement)).sort(),
  );

/** `decoration-images` → `decorationImages`. @param {string} segment */
const identifier = (segment) => segment.replace(/[-_]+([a-z0-9])/g, (_, c) => c.toUpperCase());

/**
 * The operations the client calls with its own credentials.
 * @param {SpecModel} model
 */
const clientOperations = (model) => {
  const own = schemesOf(model.document.security);
  return model.operations.filter(
    (operation) => schemesOf(operation.definition.security ?? model.document.security) === own,
  );
};

/**
 * The path prefix every one of `paths` starts with, whole segments only.
 * @param {string[]} paths
 */
const sharedPrefix = (paths) => {
  const split = paths.map((path) => path.split('/'));
  const first = split[0] ?? [];
  let length = 0;
  while (length < first.length - 1 && split.every((segments) => segments[length] === first[length]))
    length += 1;
  return first.slice(0, length);
};

/**
 * How a JSON write body wraps its fields: the one object property, and the properties beside it.
 * @param {SpecModel} model
 * @param {Operation} operation
 * @returns {{ key: string, beside: string[] } | undefined}
 */
const wrapOf = (model, operation) => {
  const body = model.resolveOptional(operation.definition.requestBody);
  const content = model.resolveOptional(body?.content);
  const schema = model.resolveOptional(model.resolveOptional(content?.['application/json'])?.schema);
  const properties = Object.entries(model.resolveOptional(schema?.properties) ?? {});
  const objects = properties.filter(([, property]) => model.resolveOptional(property)?.type === 'object');
  const [only] = objects;
  if (objects.length !== 1 || !only) return undefined;
  const fields = Object.keys(model.resolveOptional(model.resolveOptional(only[1])?.properties) ?? {});
  const beside = properties.map(([name]) => name).filter((name) => name !== only[0]);
  const clash = [...beside, ...operation.parameters.map((parameter) => parameter.name)].find((name) =>
    fields.includes(name),
  );
  if (clash) throw new Error(`${operation.operationId}: ${clash} is both a body field and beside it`);
  return { key: only[0], beside };
};

/**
 * The method tree of one API, and how its write bodies wrap their fields.
 * @param {SpecModel} model
 * @returns {{ tree: Tree, wrap: Wrap | undefined }}
 */
export function operationTree(model) {
  const operations = clientOperations(model);
  const prefix = sharedPrefix(operations.map((operation) => operation.pathTemplate)).length;
  const lists = new Map(listEndpointsOf(model).map((list) => [list.operationId, list]));
  /** @type {Tree} */
  const tree = {};
  /** @type {Set<string>} */
  const wraps = new Set();
  /** @type {Set<string>} */
  const beside = new Set();
  for (const operation of operations) {
    const { operationId, method, pathTemplate } = operation;
    const verb = /^[a-z]+/.exec(operationId)?.[0];
    if (!verb) throw new Error(`${operationId}: an operationId starts with its verb`);
    const names = pathTemplate
      .split('/')
      .slice(prefix)
      .filter((segment) => !segment.startsWith('{'))
      .map(identifier);
    if (names.at(-1) === verb) names.pop();
    const hasBody = operation.definition.requestBody !== undefined;
    if (hasBody && operation.parameters.some((parameter) => parameter.in === 'query'))
      throw new Error(`${operationId}: a method cannot tell its query fields from its body fields`);
    const bodyWrap = hasBody ? wrapOf(model, operation) : undefined;
    if (hasBody) wraps.add(bodyWrap?.key ?? '');
    for (const name of bodyWrap?.beside ?? []) beside.add(name);
    const list = lists.get(operationId);
    const id = `operations['${operationId}']`;
    let type = bodyWrap ? `OperationMethod<${id}, '${bodyWrap.key}'>` : `OperationMethod<${id}>`;
    if (list?.pageable) {
      const paging = ['offset', ...(list.cursor ? [list.cursor.parameter] : [])];
      type = `PagedOperationMethod<${id}, '${list.key}', ${paging.map((name) => `'${name}'`).join(' | ')}>`;
    }
    /** @type {Tree} */
    let node = tree;
    for (const name of names) {
      const child = node[name] ?? {};
      node[name] = child;
      if ('leaf' in child) throw new Error(`${operationId}: ${names.join('.')} is already a method`);
      node = /** @type {Tree} */ (child);
    }
    if (node[verb]) throw new Error(`${operationId}: ${[...names, verb].join('.')} names two operations`);
    node[verb] = { leaf: `${method} ${pathTemplate}`, type };
  }
  if (wraps.size > 1) throw new Error(`the write bodies wrap their fields in ${wraps.size} ways`);
  const [key] = wraps;
  return { tree, wrap: key ? { key, beside: [...beside].sort() } : undefined };
}

/**
 * @param {Tree} tree
 * @param {(leaf: Leaf) => string} leafText
 * @param {string} indent
 * @returns {string}
 */
const print = (tree, leafText, indent) =>
  Object.entries(tree)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, node]) => {
      const value =
        typeof node.leaf === 'string'
          ? leafText(/** @type {Leaf} */ (node))
          : `{\n${print(/** @type {Tree} */ (node), leafText, `${indent}  `)}${indent}}`;
      return `${indent}${name}: ${value};\n`;
    })
    .join('');

/**
 * The text of `methods.ts` for one API's client.
 * @param {SpecModel} model
 * @param {string} api e.g. `admin`
 */
export function operationMethodsModule(model, api) {
  const { tree, wrap } = operationTree(model);
  const title = `${api[0]?.toUpperCase()}${api.slice(1)}Methods`;
  const types = print(tree, (leaf) => leaf.type, '  ');
  const table = print(tree, (leaf) => `'${leaf.leaf}'`, '    ').replaceAll(';\n', ',\n');
  return (
    `import type { OperationMethod, OperationTable, PagedOperationMethod } from '@mall-api/client-kit';\n` +
    `import type { operations } from '@mall-api/specs/types/${api}';\n\n` +
    `/** One method per operation of the ${api} API, by namespace. */\n` +
    `export interface ${title} {\n${types}}\n\n` +
    `/** Where each method's operation is (read by \`attachOperationMethods\`). */\n` +
    `export const ${api}Methods: OperationTable = {\n  tree: {\n${table}  },\n` +
    (wrap ? `  wrap: ${JSON.stringify(wrap)},\n` : '') +
    '};\n'
  );
}
