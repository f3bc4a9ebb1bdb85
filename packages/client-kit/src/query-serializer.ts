// The query serialization all three APIs share: arrays are comma lists (`style: form`,
// `explode: false`), as the specs declare, e.g. `shop_no=1,2`.

/** openapi-fetch `querySerializer` option for the mall APIs. */
export const commaListQuery = { array: { style: 'form', explode: false } } as const;
