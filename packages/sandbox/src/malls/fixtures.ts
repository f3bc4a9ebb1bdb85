// Fixtures: a mall's starting data as JSON in the admin API's own request shapes,
//   { categories: [...], products: [...], bundles: [...], placements: [...] }
// each record the `request` of its create operation (a placement's with its `category_no` or
// `main_display_group`); `"$id": "<name>"` names a record and `{ "$ref": "<name>" }` in a number
// field refers to one listed before it. Records are checked against the request schema and the
// front layer's rules, then written through the API's services, in time slices.
import { isJsonObject, type SpecModel } from '@mall-api/spec-model';
import type { Catalogue } from '../catalogue/catalogue.js';
import type { Refusal, Violation } from '../protocol.js';
import { bodyViolation as at, invalidFields, refusal, refusalOf } from '../sandbox-result.js';
import { memo } from '../support/memo.js';
import { inSlices } from '../support/time-slice.js';
import { type SchemaValidator, schemaViolations } from './schema-violations.js';

/** Rules about a request body the front layer applies beyond its schema (by operation id): each broken rule names a body field. */
export type RequestRules = (
  operationId: string,
  body: unknown,
) => readonly { readonly name: string; readonly message: string }[];

/** A fixture whose every record passed its checks, ready to write. */
export interface CheckedFixture {
  readonly ok: true;
  readonly entries: readonly Entry[];
}

type Fields = Record<string, unknown>;
type Section = 'categories' | 'products' | 'bundles' | 'placements';

/** The fixture sections of records, each with the create operation whose `request` a record is. */
export const recordSections = {
  categories: 'createCategory',
  products: 'createProduct',
  bundles: 'createBundleProduct',
} as const;
/**
 * The fixture's placements: the field naming where a placement goes, each with the create
 * operation whose `request` (plus that field) a placement is.
 */
export const placementTargets = {
  category_no: 'createCategoryProduct',
  main_display_group: 'createMainProduct',
} as const;
const sections: readonly Section[] = ['categories', 'products', 'bundles', 'placements'];

/** A fixture record ready to check and write: the operation, its path number and request. */
interface Entry {
  readonly section: Section;
  readonly name: string;
  readonly operationId: string;
  readonly id: string | undefined;
  /** The category or main group a placement goes to (maybe a reference). */
  readonly target: unknown;
  readonly request: Fields;
}

/** Replaces every `{ "$ref": name }` by `resolve(name)` (a deep copy). */
function resolveRefs(value: unknown, resolve: (name: string) => number): unknown {
  if (Array.isArray(value)) return value.map((item) => resolveRefs(item, resolve));
  if (!isJsonObject(value)) return value;
  if (typeof value.$ref === 'string' && Object.keys(value).length === 1) return resolve(value.$ref);
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, resolveRefs(inner, resolve)]));
}

/** The entries of a fixture, or what is wrong with its shape (in time slices). */
async function entriesOf(fixture: unknown): Promise<{ entries: Entry[]; violations: Violation[] }> {
  const violations: Violation[] = [];
  const entries: Entry[] = [];
  if (!isJsonObject(fixture)) return { entries, violations: [at('fixture', 'must be an object')] };
  for (const key of Object.keys(fixture))
    if (!(sections as readonly string[]).includes(key))
      violations.push(at(key, `is not a fixture section (${sections.join(', ')})`));
  for (const section of sections) {
    const records = fixture[section] ?? [];
    if (!Array.isArray(records)) {
      violations.push(at(section, 'must be an array'));
      continue;
    }
    await inSlices(records as unknown[], (record, index) => {
      const name = `${section}/${index}`;
      if (!isJsonObject(record)) {
        violations.push(at(name, 'must be an object'));
        return;
      }
      const { $id: id, category_no: categoryNo, main_display_group: mainGroup, ...request } = record;
      if (id !== undefined && (typeof id !== 'string' || id === ''))
        violations.push(at(`${name}.$id`, 'must be a non-empty string'));
      const placement = section === 'placements';
      if (placement && (categoryNo === undefined) === (mainGroup === undefined)) {
        violations.push(at(name, 'needs exactly one of category_no and main_display_group'));
        return;
      }
      if (!placement && categoryNo !== undefined) request.category_no = categoryNo;
      const operationId = placement
        ? placementTargets[categoryNo === undefined ? 'main_display_group' : 'category_no']
        : recordSections[section];
      entries.push({
        section,
        name,
        operationId,
        id: typeof id === 'string' ? id : undefined,
        target: placement ? (categoryNo ?? mainGroup) : undefined,
        request,
      });
    });
  }
  const seen = new Set<string>();
  for (const entry of entries)
    if (entry.id !== undefined) {
      if (seen.has(entry.id))
        violations.push(at(`${entry.name}.$id`, `${entry.id} names an earlier record too`));
      seen.add(entry.id);
    }
  return { entries, violations };
}

/** Loads fixtures into a mall's catalogue, checking them by the spec of `model` (the admin API's). */
export function createFixtureLoader(model: SpecModel, requestRules: RequestRules = () => []) {
  const validatorOf = memo((operationId: string): SchemaValidator => {
    const schema = model.operation(operationId)?.bodySchema;
    if (!schema) throw new Error(`the admin spec has no request body for ${operationId}`);
    return model.schemas().compile(schema);
  });

  /** Schema and request-rule violations of one entry, each reference standing in as its own number. */
  const check = (entry: Entry): Violation[] => {
    let placeholder = 0;
    const body = { shop_no: 1, request: resolveRefs(entry.request, () => ++placeholder) };
    const violations = schemaViolations(validatorOf(entry.operationId), body, entry.name, '/request');
    for (const violation of requestRules(entry.operationId, body))
      violations.push(at(`${entry.name}.${violation.name.replace(/^request\.?/, '')}`, violation.message));
    return violations;
  };

  /** Writes one checked entry; returns the number it was given (for `$id`). */
  const write = (
    catalogue: Catalogue,
    entry: Entry,
    resolve: (name: string) => number,
  ): number | undefined => {
    const request = resolveRefs(entry.request, resolve) as Fields;
    const target = resolveRefs(entry.target, resolve) as number;
    switch (entry.section) {
      case 'categories':
        return catalogue.categories.create(1, request).category_no;
      case 'products':
      case 'bundles':
        return catalogue.products.create(1, request, entry.section === 'bundles').product_no;
      case 'placements': {
        const numbers = request.product_no as number[];
        const outcome =
          entry.operationId === 'createCategoryProduct'
            ? catalogue.placements.addToCategory(1, target, (request.display_group as number) ?? 1, numbers)
            : catalogue.placements.addToMain(1, target, numbers);
        if (outcome.refused.length > 0)
          throw invalidFields(
            outcome.refused.map(({ index, productNo }) =>
              at(`product_no/${index}`, `product ${productNo} does not exist`),
            ),
          );
        return undefined;
      }
    }
  };

  /** Writes entries in order, each `$ref` resolved to the number an earlier entry was given. */
  const entryWriter = (catalogue: Catalogue) => {
    const numbers = new Map<string, number>();
    const resolve = (name: string) => {
      const number = numbers.get(name);
      if (number === undefined)
        throw invalidFields([at('$ref', `${name} is not the $id of an earlier record`)]);
      return number;
    };
    let current: Entry | undefined;
    return {
      write(entry: Entry): void {
        current = entry;
        const number = write(catalogue, entry, resolve);
        if (entry.id !== undefined && number !== undefined) numbers.set(entry.id, number);
      },
      /** The refusal of the record being written, naming it (an error that is no refusal is rethrown). */
      refused(error: unknown): Refusal {
        const refused = refusalOf(error);
        if (!refused) throw error;
        const prefix = current?.name ?? 'fixture';
        const named = refused.violations.length > 0 ? refused.violations : [at('', refused.message)];
        return refusal(
          'invalid',
          named.map((v) => at(`${prefix}${v.name ? `.${v.name.replace(/^request\./, '')}` : ''}`, v.message)),
        );
      },
    };
  };

  return {
    /** Checks every record of `fixture` (in time slices): the records to write, or why none will be. */
    async check(fixture: unknown): Promise<CheckedFixture | Refusal> {
      const { entries, violations } = await entriesOf(fixture);
      await inSlices(entries, (entry) => violations.push(...check(entry)));
      return violations.length > 0 ? refusal('invalid', violations) : { ok: true, entries };
    },
    /**
     * Writes a checked fixture's records into `catalogue` (a staged one: on a refusal, its caller
     * discards it), one transaction per time slice; the refusal of a record, if one is refused.
     */
    write(catalogue: Catalogue, fixture: CheckedFixture): Promise<Refusal | undefined> {
      const writer = entryWriter(catalogue);
      return inSlices(fixture.entries, writer.write, (run) => catalogue.store.transaction(run)).then(
        () => undefined,
        writer.refused,
      );
    },
    /**
     * Writes a checked fixture's records into `catalogue` in one go, in one transaction (nested in
     * the caller's, if any: a refusal then leaves undoing the writes to it); as {@link write} answers.
     */
    writeNow(catalogue: Catalogue, fixture: CheckedFixture): Refusal | undefined {
      const writer = entryWriter(catalogue);
      try {
        catalogue.store.transaction(() => {
          for (const entry of fixture.entries) writer.write(entry);
        });
      } catch (error) {
        return writer.refused(error);
      }
    },
  };
}

/** A fixture loader. */
export type FixtureLoader = ReturnType<typeof createFixtureLoader>;
