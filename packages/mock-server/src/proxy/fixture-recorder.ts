// Records what a real service answers as a sandbox fixture: each record a read returns becomes a
// record of its section in the create request's shape (projected onto the request schema, valid
// fields only, a number naming a recorded record written as `{"$ref": …}`), and the products listed
// under a category or main display group a placement there. One file per mall, `<dir>/<mall>.json`,
// rewritten as answers arrive; load it with `POST /__mock/malls/{mall}/fixtures`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  isJsonObject,
  type Json,
  type JsonObject,
  type OperationEntry,
  parameterValue,
  type SpecModel,
} from '@mall-api/spec-model';

/** Collects fixtures from answers. */
export interface FixtureRecorder {
  /** Takes the records of a 200 answer of `operation` (called with `request`'s parameters) for `mall`. */
  observe(mall: string, operation: OperationEntry, body: Json | undefined, request?: ObservedRequest): void;
}

/** The parameters of the request an answer came to. */
export interface ObservedRequest {
  readonly path?: Readonly<Record<string, string>>;
  readonly query?: URLSearchParams;
}

interface Section {
  readonly name: string;
  /** The item path's parameter naming a record (`category_no`). */
  readonly id: string;
  readonly reads: ReadonlySet<string>;
  /** The create request's attributes, each with its schema and validator. */
  readonly attributes: ReadonlyMap<
    string,
    { readonly schema: Json; readonly valid: (value: unknown) => boolean }
  >;
  /** The create request as a whole: the fields its rules between fields refuse (none: valid). */
  readonly refused: (request: JsonObject) => string[];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A create operation and the `request` object of its body's schema, with that object's fields. */
function createRequestOf(spec: SpecModel, createId: string) {
  const create = spec.operation(createId);
  const body = create?.bodySchema && spec.dereference(create.bodySchema);
  const request = isJsonObject(body) && isJsonObject(body.properties) ? body.properties.request : undefined;
  if (!create || !isJsonObject(request) || !isJsonObject(request.properties)) return undefined;
  return { create, request, fields: request.properties };
}

/** The sections a spec's read operations feed, from the fixture format's create operations. */
function sectionsOf(spec: SpecModel, recordSections: Readonly<Record<string, string>>): Section[] {
  return Object.entries(recordSections).flatMap(([name, createId]) => {
    const found = createRequestOf(spec, createId);
    if (!found) return [];
    const { create, request: requestSchema, fields } = found;
    const item = new RegExp(`^${escapeRegExp(create.pathTemplate)}/\\{([^}/]+)\\}$`);
    const reads = spec.operations.filter(
      (o) => o.method === 'get' && (o.pathTemplate === create.pathTemplate || item.test(o.pathTemplate)),
    );
    const id = reads.map((o) => item.exec(o.pathTemplate)?.[1]).find(Boolean);
    if (!id) return [];
    const attributes = new Map(
      Object.entries(fields).map(([field, schema]) => {
        const validate = spec.schemas().compile(schema);
        return [field, { schema, valid: (value: unknown) => validate(value) === true }] as const;
      }),
    );
    const whole = spec.schemas().compile(requestSchema);
    const refused = (request: JsonObject) =>
      whole(request) ? [] : (whole.errors ?? []).flatMap((error) => refusedFields(requestSchema, error));
    return [{ name, id, reads: new Set(reads.map((o) => o.operationId)), attributes, refused }];
  });
}

/** A kind of placement: the fixture field naming where it goes and the reads listing what is placed there. */
interface PlacementKind {
  /** `category_no` or `main_display_group`. */
  readonly field: string;
  readonly reads: ReadonlySet<string>;
  /** The path parameter of the reads naming where (`category_no`, `display_group`). */
  readonly where: string;
  /** The create request's list of placed records (`product_no`). */
  readonly listed: string;
  /** The create request's other members the reads take as query parameters (`display_group`). */
  readonly scoped: readonly string[];
  /** Whether a create request (numbers, not references) conforms. */
  readonly valid: (request: JsonObject) => boolean;
}

/** The placement kinds of the fixture format, each from its create operation in the spec. */
function placementKindsOf(
  spec: SpecModel,
  placementTargets: Readonly<Record<string, string>>,
  ids: readonly string[],
): PlacementKind[] {
  return Object.entries(placementTargets).flatMap(([field, createId]) => {
    const found = createRequestOf(spec, createId);
    if (!found) return [];
    const { create, request, fields: properties } = found;
    const listed = Object.keys(properties).find((name) => ids.includes(name));
    const where = create.parameters.find((p) => p.in === 'path')?.name;
    if (!listed || !where) return [];
    const validate = spec.schemas().compile(request);
    const reads = spec.operations.filter((o) => o.method === 'get' && o.pathTemplate === create.pathTemplate);
    const scoped = Object.keys(properties).filter(
      (name) =>
        name !== listed && reads.some((o) => o.parameters.some((p) => p.in === 'query' && p.name === name)),
    );
    return [
      {
        field,
        where,
        listed,
        scoped,
        reads: new Set(reads.map((o) => o.operationId)),
        valid: (request: JsonObject) => validate(request) === true,
      },
    ];
  });
}

/** `value` with only what `schema` declares: the declared members of objects, at any depth. */
function projected(value: Json, schema: Json): Json {
  if (Array.isArray(value))
    return value.map((item) => projected(item, isJsonObject(schema) ? (schema.items ?? {}) : {}));
  if (!isJsonObject(value) || !isJsonObject(schema) || !isJsonObject(schema.properties)) return value;
  const properties = schema.properties;
  return Object.fromEntries(
    Object.entries(value).flatMap(([key, inner]) =>
      key in properties && inner !== null ? [[key, projected(inner, properties[key] ?? {})]] : [],
    ),
  );
}

/**
 * The fields an Ajv error blames: the one at its instance path, or for a failed `if`/`then` rule
 * the fields its `if` looks at (dropping them lifts the rule).
 */
function refusedFields(
  schema: JsonObject,
  error: { instancePath: string; schemaPath: string; keyword: string },
): string[] {
  if (error.keyword !== 'if') return [error.instancePath.split('/')[1] ?? ''];
  let node: Json | undefined = schema;
  for (const segment of error.schemaPath.replace(/^#\//, '').split('/'))
    node = Array.isArray(node) ? node[Number(segment)] : isJsonObject(node) ? node[segment] : undefined;
  return isJsonObject(node) && isJsonObject(node.properties) ? Object.keys(node.properties) : [''];
}

/**
 * The request without the fields the rules between its fields refuse (a product's condition that
 * does not fit its other attributes, say), or `undefined` when it cannot be made valid.
 */
function fitToRules(section: Section, request: JsonObject): JsonObject | undefined {
  const fitted = { ...request };
  for (let pass = 0; pass < 5; pass++) {
    const refused = section.refused(fitted);
    if (refused.length === 0) return fitted;
    // A rule over several fields reports the whole request too; drop the fields it names.
    const fields = refused.filter((field) => field in fitted);
    if (fields.length === 0) return undefined;
    for (const field of fields) delete fitted[field];
  }
  return undefined;
}

/** The records of an answer body: its one record, or the items of its list. */
function recordsIn(body: Json | undefined): JsonObject[] {
  if (!isJsonObject(body)) return [];
  const [value] = Object.values(body);
  return (Array.isArray(value) ? value : [value]).filter(isJsonObject);
}

/** What the recorder holds of one mall: records by section and id, placed numbers by kind and place. */
interface Recorded {
  readonly records: Map<string, Map<string, JsonObject>>;
  readonly placed: Map<string, Map<string, Set<number>>>;
}

/** A recorder writing into `dir`. */
export async function createFixtureRecorder(spec: SpecModel, dir: string): Promise<FixtureRecorder> {
  const { placementTargets, recordSections } = await import('@mall-api/sandbox');
  const sections = sectionsOf(spec, recordSections);
  const ids = sections.map((section) => section.id);
  const kinds = placementKindsOf(spec, placementTargets, ids);
  const malls = new Map<string, Recorded>();
  mkdirSync(dir, { recursive: true });
  const fixtureOf = ({ records, placed }: Recorded) => {
    const known = new Map<string, string>();
    for (const section of sections)
      for (const id of records.get(section.name)?.keys() ?? [])
        known.set(`${section.id}:${id}`, `${section.name}-${id}`);
    const naming = (key: string) => ids.find((id) => key.endsWith(id));
    /** `value` (under `key`) with each number naming a recorded record as a reference; undefined when one names none. */
    const referenced = (key: string, value: Json): Json | undefined => {
      const id = naming(key);
      if (Array.isArray(value)) {
        const items = value.map((item) => referenced(key, item));
        return items.some((item) => item === undefined) ? undefined : (items as Json[]);
      }
      if (isJsonObject(value)) {
        const entries = Object.entries(value).map(([inner, v]) => [inner, referenced(inner, v)] as const);
        return entries.some(([, v]) => v === undefined)
          ? undefined
          : (Object.fromEntries(entries) as JsonObject);
      }
      if (id === undefined || (typeof value !== 'number' && typeof value !== 'string')) return value;
      const target = known.get(`${id}:${value}`);
      return target === undefined ? undefined : { $ref: target };
    };
    const recordsOf = (section: Section) =>
      [...(records.get(section.name) ?? new Map<string, JsonObject>()).entries()].flatMap(([id, record]) => {
        const request: JsonObject = {};
        for (const [field, { schema, valid }] of section.attributes) {
          const value = record[field];
          if (value === undefined || value === null || field === section.id) continue;
          const own = projected(value, schema);
          // Kept only when valid as it is and every record it names was recorded too.
          if (valid(own) && referenced(field, own) !== undefined) request[field] = own;
        }
        const fitted = fitToRules(section, request);
        if (!fitted) return [];
        for (const [field, value] of Object.entries(fitted)) fitted[field] = referenced(field, value) ?? null;
        return [{ $id: `${section.name}-${id}`, ...fitted }];
      });
    const placements = kinds.flatMap((kind) =>
      [...(placed.get(kind.field)?.entries() ?? [])].flatMap(([key, numbers]) => {
        const { where, scope } = JSON.parse(key) as { where: string; scope: JsonObject };
        const listed = [...numbers].filter((n) => referenced(kind.listed, n) !== undefined);
        const place = naming(kind.field) ? referenced(kind.field, where) : Number(where);
        if (listed.length === 0 || place === undefined || !kind.valid({ ...scope, [kind.listed]: listed }))
          return [];
        return [
          {
            [kind.field]: place,
            ...scope,
            [kind.listed]: listed.map((n) => referenced(kind.listed, n) ?? null),
          },
        ];
      }),
    );
    return {
      ...Object.fromEntries(sections.map((section) => [section.name, recordsOf(section)])),
      placements,
    };
  };
  return {
    observe(mall, operation, body, request = {}) {
      const recorded = malls.get(mall) ?? { records: new Map(), placed: new Map() };
      malls.set(mall, recorded);
      const section = sections.find((s) => s.reads.has(operation.operationId));
      const kind = kinds.find((k) => k.reads.has(operation.operationId));
      const where = kind && request.path?.[kind.where];
      if (section) {
        const records = recorded.records.get(section.name) ?? new Map<string, JsonObject>();
        recorded.records.set(section.name, records);
        for (const record of recordsIn(body)) {
          const id = record[section.id];
          if (typeof id === 'number' || typeof id === 'string') records.set(String(id), record);
        }
      } else if (kind && where !== undefined) {
        // The members the read was scoped by (a category's display group), typed as their parameters say.
        const scope = Object.fromEntries(
          kind.scoped.flatMap((name) => {
            const value = request.query?.get(name);
            const parameter = operation.parameters.find((p) => p.in === 'query' && p.name === name);
            return value === null || value === undefined || !parameter
              ? []
              : [[name, parameterValue(parameter, parameter.schema, value)]];
          }),
        );
        const key = JSON.stringify({ where, scope });
        const places = recorded.placed.get(kind.field) ?? new Map<string, Set<number>>();
        recorded.placed.set(kind.field, places);
        const numbers = places.get(key) ?? new Set<number>();
        places.set(key, numbers);
        for (const record of recordsIn(body))
          if (typeof record[kind.listed] === 'number') numbers.add(record[kind.listed] as number);
      } else return;
      writeFileSync(join(dir, `${mall}.json`), `${JSON.stringify(fixtureOf(recorded), null, 2)}\n`);
    },
  };
}
