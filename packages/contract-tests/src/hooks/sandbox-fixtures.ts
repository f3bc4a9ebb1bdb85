// Sandbox fixtures: against the stateful sandbox the spec's example ids name nothing, or something
// another transaction changed, so before a transaction expecting success the hooks create what it
// needs through the API and put the new ids in its path and body, driven by the spec's paths and
// examples: a path id after a collection with a POST is a resource made from that POST's example
// (a collection without one lends a member from its GET); a body field named like such an id
// (`parent_category_no`) refers to a resource made from the required fields of its collection's
// example; a transaction on a sub-collection with a POST first adds a member there. Within one
// transaction an example id always stands for the same new resource, so the examples'
// cross-references hold. A 404 gets an id the sandbox never issued.
import type { Json, JsonObject, OperationParameter } from '@mall-api/spec-model';
import { parseJson } from './http-request.js';
import type { SpecOperations } from './spec-operations.js';

/** Sends one request to the server under test and resolves with its parsed 2xx answer. */
export type ApiCall = (method: string, path: string, body?: unknown) => Promise<unknown>;

/** A transaction expecting success, as the fixtures rewrite it. */
export interface FixtureRequest {
  readonly template: string;
  readonly method: string;
  readonly path: string;
  readonly params: URLSearchParams;
  readonly body?: string | undefined;
}

/** An id no sandbox issues, for path ids whose schema sets no maximum. */
const unknownId = 2 ** 31 - 1;

const parameterPattern = /^\{(.+)\}$/;
const isTemplateSegment = (segment: string) => parameterPattern.test(segment);
const nameOf = (segment: string) => parameterPattern.exec(segment)?.[1];

type Value = Json | undefined;
type Fields = Record<string, Value>;
const isFields = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The fields of a body: inside `request` when the body wraps them there (`{shop_no, request}`). */
const fieldsOf = (body: Value): Fields => {
  if (!isFields(body)) return {};
  return isFields(body.request) ? body.request : body;
};

/** `value` in the shape of the example's `like`: a list where it is a list, numbers for numbers. */
const shapedLike = (like: Value, value: Value): Value => {
  if (Array.isArray(like)) {
    const items = Array.isArray(value) ? value : String(value).split(',');
    return items.map((item) => shapedLike(like[0], item) ?? null);
  }
  if (Array.isArray(value)) return shapedLike(like, value[0]);
  return typeof like === 'number' ? Number(value) : value;
};

/** The id a create answered: `{category: {category_no: 23}}` → 23 (the first, when a list). */
const idFrom = (reply: unknown, name: string): Value => {
  const first = isFields(reply) ? Object.values(reply)[0] : undefined;
  const record = Array.isArray(first) ? first[0] : first;
  const id = isFields(record) ? record[name] : undefined;
  return Array.isArray(id) ? id[0] : id;
};

/** The sandbox fixtures of one spec. */
export interface SandboxFixtures {
  /** Makes what a transaction expecting success needs; the path and body to send instead. */
  prepare(request: FixtureRequest): Promise<{ path: string; body?: string | undefined }>;
  /**
   * The path with its first integer id parameter replaced by an id that names nothing, for a 404
   * from the sandbox itself; undefined when the path has no such parameter.
   */
  unknownIdPath(
    template: string,
    path: string,
    parameters: readonly OperationParameter[],
  ): string | undefined;
}

/** What the fixtures of one spec read, and the new id each example id of one transaction stands for. */
interface Preparation {
  readonly spec: SpecOperations;
  readonly call: ApiCall;
  /** Parameter name → the top-level collection with a POST whose items it names, first in the spec. */
  readonly homes: ReadonlyMap<string, string>;
  /** Example id (`name:example`) → the id of the resource made for it in this transaction. */
  readonly ids: Map<string, Value>;
}

const hasPost = (spec: SpecOperations, template: string) => spec.operationAt(template, 'post') !== undefined;

/** Parameter name → the top-level collection with a POST whose items it names, first in the spec. */
function homesOf(spec: SpecOperations): Map<string, string> {
  const homes = new Map<string, string>();
  for (const template of spec.templates) {
    const segments = template.split('/');
    const index = segments.findIndex(isTemplateSegment);
    const collection = segments.slice(0, index).join('/');
    const name = nameOf(segments[index] ?? '');
    if (name && hasPost(spec, collection) && !homes.has(name)) homes.set(name, collection);
  }
  return homes;
}

/** The parameter a body field names a resource of (`parent_category_no` → `category_no`). */
const kindOfField = (homes: ReadonlyMap<string, string>, field: string) =>
  [...homes.keys()].find((name) => field === name || field.endsWith(`_${name}`));

/** The example with only the fields its schema requires, at every level. */
function requiredOnly(spec: SpecOperations, value: Value, schemaNode: Value): Value {
  const schema = spec.model.resolveOptional(schemaNode);
  if (Array.isArray(value)) return value.map((item) => requiredOnly(spec, item, schema?.items) ?? null);
  if (!isFields(value) || !isFields(schema?.properties)) return value;
  const properties: JsonObject = schema.properties;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  return Object.fromEntries(
    Object.entries(value)
      .filter(([field]) => required.has(field))
      .map(([field, item]) => [field, requiredOnly(spec, item, properties[field]) ?? null]),
  );
}

/** The id made for an example id in this transaction, made by `make` the first time. */
async function remembered(p: Preparation, name: string, example: Value, make: () => Promise<Value>) {
  const key = `${name}:${String(example)}`;
  if (!p.ids.has(key)) p.ids.set(key, await make());
  return p.ids.get(key);
}

/** Creates a resource with the POST of `collection` (a concrete path) from its example. */
async function create(p: Preparation, template: string, collection: string, name: string, minimal: boolean) {
  const operation = p.spec.operationAt(template, 'post');
  if (!operation) throw new Error(`no POST ${template} to create a ${name} with`);
  const example = (p.spec.requestExample(operation) ?? {}) as Value;
  const body = await withReferences(
    p,
    minimal ? requiredOnly(p.spec, example, p.spec.requestSchema(operation)) : example,
  );
  const id = idFrom(await p.call('POST', collection, body), name);
  if (id === undefined) throw new Error(`POST ${collection} answered no ${name}`);
  return id;
}

/** The resource an example id in a body stands for: a new one from its home collection. */
function reference(p: Preparation, name: string, example: Value) {
  const home = p.homes.get(name) ?? '';
  return remembered(p, name, example, () => create(p, home, home, name, true));
}

/** The body with every example id replaced by the id of a resource made for it. */
async function withReferences(p: Preparation, value: Value, name?: string): Promise<Value> {
  if (Array.isArray(value)) {
    const items: Json[] = [];
    for (const item of value) items.push((await withReferences(p, item, name)) ?? null);
    return items;
  }
  if (isFields(value)) {
    const fields: Fields = {};
    for (const [field, item] of Object.entries(value))
      fields[field] = await withReferences(p, item, kindOfField(p.homes, field));
    return fields as Json;
  }
  return name && Number.isInteger(value) ? reference(p, name, value) : value;
}

/** A member of a collection without a POST: the example's one if listed, else the first. */
async function existingMember(call: ApiCall, collection: string, name: string, example: string) {
  const reply = await call('GET', collection);
  const listed = (isFields(reply) ? Object.values(reply).find(Array.isArray) : undefined) ?? [];
  const member = listed.find((item) => isFields(item) && String(item[name]) === example) ?? listed[0];
  const id = isFields(member) ? member[name] : undefined;
  if (id === undefined) throw new Error(`GET ${collection} lists no ${name} to use`);
  return id;
}

/** The path with every id parameter standing for a resource that exists. */
async function resolvePath(p: Preparation, template: string, path: string) {
  const parts = template.split('/');
  const segments = path.split('/');
  for (const [index, part] of parts.entries()) {
    const name = nameOf(part);
    if (!name) continue;
    const collectionTemplate = parts.slice(0, index).join('/');
    const collection = segments.slice(0, index).join('/');
    const example = segments[index] ?? '';
    let id: Value;
    if (hasPost(p.spec, collectionTemplate) && !collectionTemplate.includes('{'))
      id = await remembered(p, name, example, () => create(p, collectionTemplate, collection, name, false));
    else if (p.homes.has(name)) id = await reference(p, name, Number(example));
    else id = await existingMember(p.call, collection, name, example);
    segments[index] = encodeURIComponent(String(id));
  }
  return segments.join('/');
}

/** The innermost collection with path parameters and a POST that the template lies in. */
const subCollectionOf = (spec: SpecOperations, template: string) =>
  spec.templates
    .filter((t) => t.includes('{') && hasPost(spec, t) && (template === t || template.startsWith(`${t}/`)))
    .sort((a, b) => b.length - a.length)[0];

/**
 * Adds a member to the sub-collection before an update, delete or list there: the POST's example,
 * with the values the transaction names (its path ids, query and body fields) in place of the
 * example's own.
 */
async function addMember(p: Preparation, { template, method, path, params }: FixtureRequest, body: Value) {
  const collectionTemplate = subCollectionOf(p.spec, template);
  if (!collectionTemplate || (method === 'POST' && template === collectionTemplate)) return;
  const depth = collectionTemplate.split('/').length;
  const segments = path.split('/');
  const named: Fields = Object.fromEntries(params);
  Object.assign(named, fieldsOf(body));
  for (const [index, part] of template.split('/').entries()) {
    const name = nameOf(part);
    if (name && index >= depth) named[name] = decodeURIComponent(segments[index] ?? '');
  }
  const post = p.spec.operationAt(collectionTemplate, 'post');
  const example = ((post && p.spec.requestExample(post)) ?? {}) as Value;
  const exampleFields = fieldsOf(example);
  const given: Fields = {};
  for (const [field, value] of Object.entries(exampleFields)) {
    if (named[field] === undefined) continue;
    given[field] = shapedLike(value, named[field]);
    delete exampleFields[field];
  }
  const memberBody = await withReferences(p, example);
  Object.assign(fieldsOf(memberBody), given);
  await p.call('POST', segments.slice(0, depth).join('/'), memberBody);
}

/** Builds the fixture maker for one spec; `call` reaches the server under test. */
export function createSandboxFixtures(spec: SpecOperations, call: ApiCall): SandboxFixtures {
  const homes = homesOf(spec);
  return {
    async prepare(request) {
      const { template, path, body } = request;
      const p: Preparation = { spec, call, homes, ids: new Map() };
      const resolvedPath = await resolvePath(p, template, path);
      const json = parseJson(body ?? '');
      const parsed = json === undefined ? undefined : await withReferences(p, json);
      await addMember(p, { ...request, path: resolvedPath }, parsed);
      return { path: resolvedPath, body: parsed === undefined ? body : JSON.stringify(parsed) };
    },

    unknownIdPath(template, path, parameters) {
      const schemas = template.split('/').map((part) => {
        const parameter = parameters.find((p) => p.in === 'path' && p.name === nameOf(part));
        return parameter?.schema;
      });
      const index = schemas.findIndex((schema) => schema?.type === 'integer');
      if (index < 0) return undefined;
      const segments = path.split('/');
      const maximum = schemas[index]?.maximum;
      segments[index] = String(typeof maximum === 'number' ? maximum : unknownId);
      return segments.join('/');
    },
  };
}
