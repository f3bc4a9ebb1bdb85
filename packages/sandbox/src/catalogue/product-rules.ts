// The state-dependent rules of a product create or update, each naming the field it refuses:
// references name existing records, adult certification needs age verification, a global-edition
// mall ships only abroad and has no web FTP images, and an update keeps shipping, categories and
// used-product fields consistent with the stored product. Every violation is reported at once.
import { bodyFieldName } from '@mall-api/spec-model';
import type { Violation } from '../protocol.js';
import { invalidFields, bodyViolation as violation } from '../sandbox-result.js';
import type { ProductRecord } from './product-directory.js';
import type { RequestReferenceCheck } from './reference-check.js';

/** The categories an update's `delete_category_no` names (one number or a list). */
export function categoriesToDelete(request: Record<string, unknown>): unknown[] {
  const sent = request.delete_category_no;
  return Array.isArray(sent) ? sent : sent === undefined ? [] : [sent];
}

/** The rules an update adds: they compare the request with the stored product. */
function updateViolations(request: Record<string, unknown>, current: ProductRecord): Violation[] {
  const violations: Violation[] = [];
  const feeByProduct = request.shipping_fee_by_product ?? current.shipping_fee_by_product;
  if (request.shipping_scope !== undefined && feeByProduct === 'F')
    violations.push(violation('request.shipping_scope', 'cannot be set while shipping_fee_by_product is F'));
  const scope = request.shipping_scope ?? current.shipping_scope;
  if (scope === 'B' || scope === 'C')
    for (const field of ['hscode', 'clearance_category_code'])
      if (field in request && !request[field])
        violations.push(
          violation(`request.${field}`, `is required while shipping_scope is ${String(scope)}`),
        );
  const own = new Set(
    Array.isArray(current.category)
      ? current.category.map((c: { category_no: number }) => c.category_no)
      : [],
  );
  const listed = Array.isArray(request.delete_category_no);
  categoriesToDelete(request).forEach((no, index) => {
    if (!own.has(no as number))
      violations.push(
        violation(
          `request.delete_category_no${listed ? `/${index}` : ''}`,
          `category ${String(no)} is not a category of the product`,
        ),
      );
  });
  if (
    request.product_used_month !== undefined &&
    (request.product_condition ?? current.product_condition) !== 'U'
  )
    violations.push(
      violation('request.product_used_month', 'applies only to used products (product_condition U)'),
    );
  return violations;
}

/**
 * Refuses a product create (`current` undefined) or update of operation `operationId` that breaks a
 * rule, with every violation at once.
 */
export function checkProduct(
  {
    references,
    settings,
  }: {
    references: RequestReferenceCheck;
    /** The mall's settings these rules depend on (product-service.ts's `MallSettings`). */
    settings: { readonly globalEdition: boolean; readonly ageVerification: boolean };
  },
  operationId: string,
  request: Record<string, unknown>,
  current: ProductRecord | undefined,
  productNo?: number,
): void {
  const violations: Violation[] = references(operationId, { request }, productNo).map(({ path, message }) =>
    violation(bodyFieldName(path), message),
  );
  if (request.adult_certification === 'T' && !settings.ageVerification)
    violations.push(
      violation(
        'request.adult_certification',
        'can be T only when the mall restricts orders by age verification (start the sandbox with --age-verification)',
      ),
    );
  if (settings.globalEdition) {
    const scope = request.shipping_scope ?? current?.shipping_scope;
    if (scope !== 'C')
      violations.push(
        violation('request.shipping_scope', 'must be C (export only) in a global-edition mall'),
      );
    if (request.image_upload_type === 'C')
      violations.push(
        violation('request.image_upload_type', 'C (web FTP) is not available in a global-edition mall'),
      );
  }
  if (current) violations.push(...updateViolations(request, current));
  if (violations.length > 0) throw invalidFields(violations);
}
