// Rules about a JSON request body that JSON Schema cannot express but the request alone settles
// (the admin spec lists them under `x-mock-enforced`), keyed by operationId. Each broken rule is a
// violation naming the field (`request.<field>`, array elements as `request.<field>/<index>` like
// the spec's examples), answered with 422. Rules that need stored state (unknown ids, stored
// values, mall settings) belong to the sandbox, not here.
import type { Violation } from './error-envelope.js';

/** A rule about the body of one operation. */
export type BodyRule = (body: unknown) => Violation[];

type Fields = Readonly<Record<string, unknown>>;

const isFields = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const violation = (name: string, message: string): Violation => ({ location: 'body', name, message });

/** A rule about the one `request` object of a write body (schema validation refuses bodies without one). */
const onRequest =
  (rule: (request: Fields) => Violation[]): BodyRule =>
  (body) =>
    isFields(body) && isFields(body.request) ? rule(body.request) : [];

/** The most variants one product may have (the seed's limit). */
const maxVariantsPerProduct = 100;

/** The largest amount the platform stores (the `Amount` schema: at most 2147483647). */
const maxAmount = 2_147_483_647;

/** The product amounts the spec caps at {@link maxAmount}. */
const amountFields = ['price', 'retail_price', 'supply_price', 'price_excluding_tax', 'additional_price'];
/** The amounts of one `shipping_rates` element. */
const shippingRateAmounts = ['shipping_fee', 'shipping_rates_min', 'shipping_rates_max'];

const amountValue = (value: unknown): number | undefined => {
  const amount = typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isFinite(amount) ? amount : undefined;
};

const shippingRates = (request: Fields): [number, Fields][] =>
  Array.isArray(request.shipping_rates)
    ? request.shipping_rates.flatMap((rate, index): [number, Fields][] =>
        isFields(rate) ? [[index, rate]] : [],
      )
    : [];

/** Amounts (`price` … `additional_price`, and the amounts of each shipping rate) are at most 2147483647. */
const amountsWithinCeiling = onRequest((request) => {
  const over = (value: unknown) => (amountValue(value) ?? 0) > maxAmount;
  const message = `must be at most ${maxAmount}`;
  return [
    ...amountFields
      .filter((field) => over(request[field]))
      .map((field) => violation(`request.${field}`, message)),
    ...shippingRates(request).flatMap(([index, rate]) =>
      shippingRateAmounts
        .filter((field) => over(rate[field]))
        .map((field) => violation(`request.shipping_rates/${index}/${field}`, message)),
    ),
  ];
});

/** An interval shipping rate may not start above its end (the spec's `*_min`/`*_max` convention). */
const shippingRateIntervalsInOrder = onRequest((request) =>
  shippingRates(request).flatMap(([index, rate]) => {
    const [min, max] = [amountValue(rate.shipping_rates_min), amountValue(rate.shipping_rates_max)];
    return min !== undefined && max !== undefined && min > max
      ? [
          violation(
            `request.shipping_rates/${index}/shipping_rates_max`,
            'must not be less than shipping_rates_min',
          ),
        ]
      : [];
  }),
);

/** The longest search-tag text: the tags joined by commas (seed: `product_tag` max 200). */
const maxProductTagText = 200;

/** `product_tag`: the tags joined by commas are at most 200 characters. */
const productTagTextWithinLimit = onRequest((request) => {
  const tags = request.product_tag;
  if (!Array.isArray(tags) || !tags.every((tag) => typeof tag === 'string')) return [];
  const length = tags.join(',').length;
  return length > maxProductTagText
    ? [
        violation(
          'request.product_tag',
          `joined by commas is ${length} characters; at most ${maxProductTagText} are allowed`,
        ),
      ]
    : [];
});

/** The `shipping_period` members a request leaves out take these defaults (schema `ShippingPeriod`). */
const shippingPeriodDefaults = { minimum: 1, maximum: 7 } as const;

/** `shipping_period.minimum` must not exceed `shipping_period.maximum` (an omitted member takes its default). */
const shippingPeriodInOrder = onRequest((request) => {
  const period = request.shipping_period;
  if (!isFields(period)) return [];
  const minimum = typeof period.minimum === 'number' ? period.minimum : shippingPeriodDefaults.minimum;
  const maximum = typeof period.maximum === 'number' ? period.maximum : shippingPeriodDefaults.maximum;
  return minimum > maximum
    ? [violation('request.shipping_period', `minimum (${minimum}) must not exceed maximum (${maximum})`)]
    : [];
});

/** The icon period of an update may not end before it begins. */
const iconPeriodInOrder = onRequest((request) => {
  const [begin, end] = [request.icon_exposure_begin_datetime, request.icon_exposure_end_datetime].map(
    (value) => (typeof value === 'string' ? Date.parse(value) : Number.NaN),
  );
  return (end as number) < (begin as number)
    ? [violation('request.icon_exposure_end_datetime', 'must not be before icon_exposure_begin_datetime')]
    : [];
});

/** The `options` of a create combine to at most 100 variants (one per combination of values). */
const variantsWithinLimit = onRequest((request) => {
  if (!Array.isArray(request.options)) return [];
  const count = request.options.reduce(
    (total: number, option: unknown) =>
      total * (isFields(option) && Array.isArray(option.value) ? option.value.length : 1),
    1,
  );
  return count > maxVariantsPerProduct
    ? [
        violation(
          'request.options',
          `combine to ${count} variants; a product has at most ${maxVariantsPerProduct}`,
        ),
      ]
    : [];
});

/** Every `fix_product_no` item must also be in `product_no`. */
const fixedProductsListed = onRequest((request) => {
  const ordered = Array.isArray(request.product_no) ? request.product_no : [];
  const fixed = Array.isArray(request.fix_product_no) ? request.fix_product_no : [];
  return fixed.flatMap((productNo: unknown, index) =>
    ordered.includes(productNo)
      ? []
      : [
          violation(
            `request.fix_product_no/${index}`,
            `product ${String(productNo)} is not in request.product_no`,
          ),
        ],
  );
});

const productWriteRules: readonly BodyRule[] = [
  amountsWithinCeiling,
  shippingRateIntervalsInOrder,
  productTagTextWithinLimit,
  shippingPeriodInOrder,
];

const productUpdateRules: readonly BodyRule[] = [...productWriteRules, iconPeriodInOrder];

/** Rules per operationId. */
const rulesByOperation: Readonly<Record<string, readonly BodyRule[]>> = {
  createProduct: [...productWriteRules, variantsWithinLimit],
  updateProduct: productUpdateRules,
  createBundleProduct: productWriteRules,
  updateBundleProduct: productUpdateRules,
  updateMainProduct: [fixedProductsListed],
};

/** All body violations of a request to the operation `operationId`. */
export function bodyRuleViolations(operationId: string, body: unknown): Violation[] {
  return (rulesByOperation[operationId] ?? []).flatMap((rule) => rule(body));
}
