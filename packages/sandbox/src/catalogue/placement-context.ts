// What placing products works with — the mall's store, its categories, its products and the check of
// the product numbers an add operation's request may name (`x-refers-to`, reference-check.ts) — and
// how an add of several products goes: each product the operation may name is added, each other one
// is refused by its index.
import type { SandboxStore } from '@mall-api/mall-state';
import type { CategoryService } from './category-service.js';
import type { ProductDirectory } from './product-directory.js';
import type { RequestReferenceCheck } from './reference-check.js';

/** One mall's placements: what they read and check. */
export interface Placements {
  readonly store: SandboxStore;
  readonly categories: CategoryService;
  readonly products: ProductDirectory;
  readonly references: RequestReferenceCheck;
}

/** The outcome of adding several products: the ones added and a violation per refused item. */
export interface AddOutcome {
  added: number[];
  refused: { index: number; productNo: number }[];
}

/** The items of `productNos` the add operation `operationId` may not name, by their index. */
function refusedOf({ references }: Placements, operationId: string, productNos: readonly number[]) {
  const refused = new Map<number, number>();
  for (const { path } of references(operationId, { request: { product_no: productNos } })) {
    const index = Number(path.at(-1));
    refused.set(index, productNos[index] as number);
  }
  return refused;
}

/** Adds each product `add` takes, refusing those the operation may not name. */
export function addEach(
  p: Placements,
  operationId: string,
  productNos: readonly number[],
  add: (productNo: number) => void,
): AddOutcome {
  const refused = refusedOf(p, operationId, productNos);
  const outcome: AddOutcome = { added: [], refused: [] };
  productNos.forEach((productNo, index) => {
    if (refused.has(index)) outcome.refused.push({ index, productNo });
    else {
      add(productNo);
      outcome.added.push(productNo);
    }
  });
  return outcome;
}
