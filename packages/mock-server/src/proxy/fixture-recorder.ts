// Records what a real service answers as a sandbox fixture (packages/sandbox, "fixtures"): each
// category and product a read operation returns becomes a record of its fixture section, in the
// create operation's `request` shape — only the attributes valid for that request's schema are
// kept, a number naming another recorded record becomes `{"$ref": …}` and one naming a record not
// recorded is left out, then fields the request's rules between fields refuse are dropped (a
// record that still does not fit is left out). One file per mall, `<dir>/<mall>.json`, rewritten as answers arrive; load
// it with the control API (`POST /__mock/malls/{mall}/fixtures`). Needs `@mall-api/sandbox`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  isJsonObject,
  type Json,
  type JsonObject,
  type OperationEntry,
  type SpecModel,
} from '@mall-api/spec-model';

/** Collects fixtures from answers. */
export interface FixtureRecorder {
  /** Takes the records of a 200 answer of `operation` for `mall`. */
  observe(mall: string, operation: OperationEntry, body: Json | undefined): void;
}

interface Section {
  readonly name: string;
  /** The item path's parameter naming a record (`category_no`). */
  readonly id: string;
  readonly reads: ReadonlySet<string>;
  /** The create request's attributes, each with its validator. */
  readonly attributes: ReadonlyMap<string, (value: unknown) => boolean>;
  /** The create request as a whole: the fields its rules between fields refuse (none: valid). */
  readonly refused: (request: JsonObject) => string[];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The sections a spec's read operations feed, from the fixture format's create operations. */
function sectionsOf(spec: SpecModel, recordSections: Readonly<Record<string, string>>): Section[] {
  return Object.entries(recordSections).flatMap(([name, createId]) => {
    const create = spec.operation(createId);
    const request = create?.bodySchema && spec.dereference(create.bodySchema);
    const properties =
      isJsonObject(request) && isJsonObject(request.properties) ? request.properties.request : undefined;
    const requestSchema = isJsonObject(properties) ? properties : undefined;
    const fields =
      requestSchema && isJsonObject(requestSchema.properties) ? requestSchema.properties : undefined;
    if (!create || !requestSchema || !fields) return [];
    const item = new RegExp(`^${escapeRegExp(create.pathTemplate)}/\\{([^}/]+)\\}$`);
    const reads = spec.operations.filter(
      (o) => o.method === 'get' && (o.pathTemplate === create.pathTemplate || item.test(o.pathTemplate)),
    );
    const id = reads.map((o) => item.exec(o.pathTemplate)?.[1]).find(Boolean);
    if (!id) return [];
    const attributes = new Map(
      Object.entries(fields).map(([field, schema]) => {
        const validate = spec.schemas().compile(schema);
        return [field, (value: unknown) => validate(value) === true] as const;
      }),
    );
    const whole = spec.schemas().compile(requestSchema);
    const refused = (request: JsonObject) =>
      whole(request) ? [] : (whole.errors ?? []).flatMap((error) => refusedFields(requestSchema, error));
    return [{ name, id, reads: new Set(reads.map((o) => o.operationId)), attributes, refused }];
  });
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

/** A recorder writing into `dir`. */
export async function createFixtureRecorder(spec: SpecModel, dir: string): Promise<FixtureRecorder> {
  const { recordSections } = await import('@mall-api/sandbox');
  const sections = sectionsOf(spec, recordSections);
  const malls = new Map<string, Map<string, Map<string, JsonObject>>>();
  mkdirSync(dir, { recursive: true });
  const fixtureOf = (recorded: Map<string, Map<string, JsonObject>>) => {
    const known = new Map<string, string>();
    for (const section of sections)
      for (const id of recorded.get(section.name)?.keys() ?? [])
        known.set(`${section.id}:${id}`, `${section.name}-${id}`);
    const reference = (field: string, value: Json | undefined) => {
      const section = sections.find((s) => field.endsWith(s.id));
      return section && (typeof value === 'number' || typeof value === 'string')
        ? known.get(`${section.id}:${value}`)
        : undefined;
    };
    return Object.fromEntries(
      sections.map((section) => [
        section.name,
        [...(recorded.get(section.name) ?? new Map<string, JsonObject>()).entries()].flatMap(
          ([id, record]) => {
            const request: JsonObject = {};
            const references: JsonObject = {};
            for (const [field, valid] of section.attributes) {
              const value = record[field];
              if (value === undefined || value === null || field === section.id) continue;
              if (!sections.some((s) => field.endsWith(s.id))) {
                if (valid(value)) request[field] = value;
                continue;
              }
              // A number naming another record: valid as it is, written as a reference (or left out).
              const target = reference(field, value);
              if (target && valid(value)) {
                request[field] = value;
                references[field] = { $ref: target };
              }
            }
            const fitted = fitToRules(section, request);
            if (!fitted) return [];
            for (const field of Object.keys(references))
              if (field in fitted) fitted[field] = references[field] ?? null;
            return [{ $id: `${section.name}-${id}`, ...fitted }];
          },
        ),
      ]),
    );
  };
  return {
    observe(mall, operation, body) {
      const section = sections.find((s) => s.reads.has(operation.operationId));
      if (!section) return;
      const recorded = malls.get(mall) ?? new Map<string, Map<string, JsonObject>>();
      malls.set(mall, recorded);
      const records = recorded.get(section.name) ?? new Map<string, JsonObject>();
      recorded.set(section.name, records);
      for (const record of recordsIn(body)) {
        const id = record[section.id];
        if (typeof id === 'number' || typeof id === 'string') records.set(String(id), record);
      }
      writeFileSync(join(dir, `${mall}.json`), `${JSON.stringify(fixtureOf(recorded), null, 2)}\n`);
    },
  };
}
