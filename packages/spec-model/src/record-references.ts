// The fields that name another record, as the specs declare them in `x-refers-to` (specs/README.md,
// "Extensions"): which resource the number names (a product, a category, a main display group),
// what it may not name (the record itself, a bundle) and which value names the top level instead of
// a record. Found by walking a dereferenced schema (a request body or a stored record); the sandbox's
// write checks, fixtures and snapshot integrity read them here, and reporting a missing record is
// theirs. Also the attributes a shop of a multi-shop mall keeps for itself (`x-per-shop`).
import { type BodyStep, type LocatedValue, valuesAt, walkBodySchema } from './body-rules.js';
import { isJsonObject, type Json, type JsonObject } from './json-document.js';

/** The resources a field can name. */
export const referencedResources = ['product', 'category', 'main-group'] as const;
/** One of {@link referencedResources}. */
export type ReferencedResource = (typeof referencedResources)[number];

/** What a referring field may not name although the record exists. */
export const referenceExclusions = ['self', 'bundle'] as const;
/** One of {@link referenceExclusions}. */
export type ReferenceExclusion = (typeof referenceExclusions)[number];

/** One field that names another record. */
export interface RecordReference {
  /** Steps from the schema's root to the field (`*` for each item of a list). */
  readonly at: readonly BodyStep[];
  readonly resource: ReferencedResource;
  /** `self`: not the record the field belongs to; `bundle`: not a bundle product. */
  readonly except: readonly ReferenceExclusion[];
  /** The value that names the top level (no record), if the field has one. */
  readonly topLevel: Json | undefined;
}

/** A declaration that does not read (an unknown resource or exclusion). */
export class RecordReferenceError extends Error {}

function referenceOf(rule: Json, at: readonly BodyStep[]): RecordReference | undefined {
  if (!isJsonObject(rule)) return undefined;
  const resource = rule.resource;
  if (!referencedResources.includes(resource as ReferencedResource))
    throw new RecordReferenceError(
      `x-refers-to at ${at.join('/')} names no known resource: ${String(resource)}`,
    );
  const except = Array.isArray(rule.except) ? rule.except : [];
  for (const item of except)
    if (!referenceExclusions.includes(item as ReferenceExclusion))
      throw new RecordReferenceError(`x-refers-to at ${at.join('/')} cannot except ${String(item)}`);
  return {
    at,
    resource: resource as ReferencedResource,
    except: except as ReferenceExclusion[],
    topLevel: rule['top-level'],
  };
}

/** Every field of a dereferenced schema that names another record, once per place. */
export function recordReferencesOf(schema: Json): RecordReference[] {
  const found = new Map<string, RecordReference>();
  walkBodySchema(schema, (node, at) => {
    const own = referenceOf(node['x-refers-to'] ?? null, at);
    if (own && !found.has(at.join('/'))) found.set(at.join('/'), own);
  });
  return [...found.values()];
}

/** The values of `value` a reference reaches (numbers or anything else found there), with their paths. */
export const referencedValues = (value: unknown, reference: RecordReference): LocatedValue[] =>
  valuesAt(value, reference.at);

/** The attributes of a dereferenced record schema each shop of a multi-shop mall keeps for itself. */
export function perShopAttributesOf(schema: JsonObject): string[] {
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  return Object.entries(properties)
    .filter(([, property]) => isJsonObject(property) && isJsonObject(property['x-per-shop']))
    .map(([name]) => name);
}
