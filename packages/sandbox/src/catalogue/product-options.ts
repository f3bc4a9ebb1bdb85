// Options and variants of sandbox products: a product created with `options` sells one variant per
// combination of values, its code the product code plus a four-character sequence (`<custom
// code>-<n>` for a custom product code). A variant's inventory is drawn from its code, as no
// operation writes it. The `options` and `variants` embeds and the variant filters are built here.
import { drawsFor } from '../support/seeded-random.js';

/** One option of a create request: a name and its values. */
export interface OptionInput {
  readonly name: string;
  readonly value: readonly string[];
}

/** What a variant is made from: the product's codes and its options. */
export interface VariantSource {
  readonly shop_no: number;
  readonly product_code: string;
  readonly custom_product_code?: unknown;
  readonly display?: unknown;
  readonly selling?: unknown;
}

/** The options of a create request (an empty list when it sends none). */
export function optionsOfRequest(request: Record<string, unknown>): OptionInput[] {
  return Array.isArray(request.options) ? (request.options as OptionInput[]) : [];
}

/** Every combination of option values, in option order. */
function combinations(options: readonly OptionInput[]): { name: string; value: string }[][] {
  return options.reduce<{ name: string; value: string }[][]>(
    (partial, option) =>
      partial.flatMap((chosen) => option.value.map((value) => [...chosen, { name: option.name, value }])),
    [[]],
  );
}

/** The variants of a product with these options (none without options). */
export function variantsOf(
  product: VariantSource,
  options: readonly OptionInput[],
): Record<string, unknown>[] {
  if (options.length === 0) return [];
  const custom = typeof product.custom_product_code === 'string' ? product.custom_product_code : undefined;
  return combinations(options).map((chosen, index) => {
    const variantCode = `${product.product_code}${(index + 1).toString(36).toUpperCase().padStart(4, '0')}`;
    const draw = drawsFor(variantCode);
    return {
      shop_no: product.shop_no,
      variant_code: variantCode,
      options: chosen,
      custom_variant_code: custom ? `${custom}-${index + 1}` : null,
      display: product.display ?? 'T',
      selling: product.selling ?? 'T',
      additional_amount: '0.00',
      use_inventory: draw.chance(0.6) ? 'T' : 'F',
      stock_quantity: draw.below(120),
      stock_safety: draw.below(15),
    };
  });
}

/** The `options` embed of a product. */
export function optionsEmbed(options: readonly OptionInput[]): Record<string, unknown> {
  return {
    has_option: options.length > 0 ? 'T' : 'F',
    option_type: options.length > 0 ? 'C' : null,
    options: options.map((option, index) => ({
      option_code: `O${String(index + 1).padStart(3, '0')}`,
      option_name: option.name,
      option_value: option.value.map((text) => ({ option_text: text })),
    })),
  };
}
