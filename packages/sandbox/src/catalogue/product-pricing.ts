// The product attributes computed from others: `price_excluding_tax` from the price and tax, a
// bundle's component prices and set price from its components and discount, and the icon period
// from an update's icon-exposure fields.
import type { ProductRecord } from './product-directory.js';

/** `price_excluding_tax` computed from the price and tax (when the request does not send it). */
export function priceFields(record: Record<string, unknown>): { price_excluding_tax?: string } {
  if (typeof record.price !== 'string') return {};
  const price = Number(record.price);
  const rate = typeof record.tax_amount === 'number' ? record.tax_amount : 10;
  return record.tax_type === 'A' || record.tax_type === undefined
    ? { price_excluding_tax: (price / (1 + rate / 100)).toFixed(2) }
    : { price_excluding_tax: price.toFixed(2) };
}

/**
 * A bundle's components (each with the component product's name, code and price, read by
 * `productOf`) and its sales terms with the set price: the request's, else the previous record's.
 */
export function bundleParts(
  productOf: (productNo: number) => ProductRecord,
  request: Record<string, unknown>,
  previous?: ProductRecord,
) {
  const components = Array.isArray(request.bundle_product_components)
    ? request.bundle_product_components.map((item: { product_no: number; purchase_quantity: number }) => {
        const component = productOf(item.product_no);
        return {
          product_no: item.product_no,
          product_name: component.product_name,
          product_code: component.product_code,
          product_price: String(component.price ?? '0.00'),
          purchase_quantity: item.purchase_quantity,
        };
      })
    : (previous?.bundle_product_components as { product_price: string; purchase_quantity: number }[]);
  const salesInput = (request.bundle_product_sales ?? previous?.bundle_product_sales ?? {}) as Record<
    string,
    unknown
  >;
  const total = (components ?? []).reduce(
    (sum, c) => sum + Number(c.product_price) * Number(c.purchase_quantity),
    0,
  );
  const value = Number(salesInput.discount_value ?? 0);
  const discounted = salesInput.discount_type === 'V' ? total - value : total * (1 - value / 100);
  const sales = {
    discount_round_unit: 'F',
    discount_round_type: 'F',
    ...salesInput,
    discount_value: value.toFixed(2),
    set_product_price: Math.max(0, discounted).toFixed(2),
  };
  return { bundle_product_components: components, bundle_product_sales: sales };
}

/**
 * `icon_show_period` from an update's icon-exposure fields: F clears it; a datetime sent sets that
 * end of the period (the other end kept).
 */
export function iconPeriod(request: Record<string, unknown>, current: ProductRecord) {
  if (request.use_icon_exposure_term === 'F') return { icon_show_period: {} };
  const begin = request.icon_exposure_begin_datetime;
  const end = request.icon_exposure_end_datetime;
  if (begin === undefined && end === undefined) return {};
  const period = typeof current.icon_show_period === 'object' ? current.icon_show_period : {};
  return {
    icon_show_period: {
      ...period,
      ...(begin === undefined ? {} : { start_date: begin }),
      ...(end === undefined ? {} : { end_date: end }),
    },
  };
}
