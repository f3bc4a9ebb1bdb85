// The references a value makes to other records, checked against what exists: each field the spec
// declares in `x-refers-to` must name an existing record of its resource (not the record itself, nor
// a bundle, where the declaration excepts them) unless it names the top level. Writes, fixtures and
// snapshot integrity share this one check; reporting is theirs.
import type { SandboxStore, TableName } from '@mall-api/mall-state';
import { type RecordReference, type ReferencedResource, referencedValues } from '@mall-api/spec-model';
import type { RecordShapes } from './record-shapes.js';

/** What exists, as the caller knows it (a mall's services, a snapshot's tables). */
export interface ReferenceLookups {
  /** Whether a record of `resource` is numbered `value`. */
  exists(resource: ReferencedResource, value: unknown): boolean;
  /** Whether the product numbered `value` is a bundle. */
  isBundle(value: unknown): boolean;
}

/** A reference that names nothing it may: where it is, what it holds and why it is refused. */
export interface BrokenReference {
  readonly path: readonly (string | number)[];
  readonly value: unknown;
  readonly message: string;
}

/** The table each resource's records are stored in, under their number. */
export const resourceTables: { readonly [R in ReferencedResource]: TableName } = {
  product: 'product',
  category: 'category',
  'main-group': 'main',
};

/** What exists in a mall's store. */
export const storeLookups = (store: SandboxStore): ReferenceLookups => ({
  exists: (resource, value) =>
    typeof value === 'number' && store.get(resourceTables[resource], String(value)) !== undefined,
  isBundle: (value) => store.get<{ bundle?: boolean }>('product', String(value))?.bundle === true,
});

/** How a message names a record of each resource. */
export const nouns: { readonly [R in ReferencedResource]: string } = {
  product: 'product',
  category: 'category',
  'main-group': 'main group',
};

/**
 * The references of `value` under `references` that name nothing they may; `self` is the number of
 * the record `value` is (or will be), if it has one yet.
 */
export function brokenReferences(
  references: readonly RecordReference[],
  value: unknown,
  lookups: ReferenceLookups,
  self?: unknown,
): BrokenReference[] {
  return references.flatMap((reference) =>
    referencedValues(value, reference).flatMap(({ path, value: named }): BrokenReference[] => {
      if (reference.topLevel !== undefined && named === reference.topLevel) return [];
      const noun = nouns[reference.resource];
      const refused = (message: string) => [{ path, value: named, message }];
      if (self !== undefined && named === self && reference.except.includes('self'))
        return refused(`names the ${noun} itself`);
      if (!lookups.exists(reference.resource, named))
        return refused(`${noun} ${String(named)} does not exist`);
      if (reference.except.includes('bundle') && lookups.isBundle(named))
        return refused(`${noun} ${String(named)} is itself a bundle`);
      return [];
    }),
  );
}

/** The check of request bodies against what exists in a mall. */
export type RequestReferenceCheck = (operationId: string, body: unknown, self?: unknown) => BrokenReference[];

/** Checks an operation's request body (`{request: …}`) by the references its schema declares. */
export const requestReferenceCheck =
  (shapes: RecordShapes, lookups: ReferenceLookups): RequestReferenceCheck =>
  (operationId, body, self) =>
    brokenReferences(shapes.requestReferences(operationId), body, lookups, self);
