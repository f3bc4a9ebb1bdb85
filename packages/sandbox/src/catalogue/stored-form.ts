// How request fields a product record shows in another shape are stored (the spec's `x-computed`):
// additional images are sent as paths or URLs and answered in three sizes, the volume is sent in
// centimetres and answered as sizes with their unit (`"30cm"`), as the platform's published answers
// show. Every other request field is stored as sent.

/** The three sizes of an additional image, from the path (or URL) a request sends. */
function imageSizes(image: string): Record<'big' | 'medium' | 'small', string> {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(image)) return { big: image, medium: image, small: image };
  const path = image.replace(/^\/+/, '');
  const sized = (size: string) => `/web/product/extra/${size}/${path}`;
  return { big: sized('big'), medium: sized('medium'), small: sized('small') };
}

/** A size in centimetres as the record shows it. */
const withUnit = (value: unknown) => (typeof value === 'number' ? `${value}cm` : value);

/** The request's fields in the shapes the product record shows them (the others unchanged). */
export function storedForm(request: Record<string, unknown>): Record<string, unknown> {
  const stored = { ...request };
  if (Array.isArray(request.additional_image))
    stored.additional_image = request.additional_image.map((image) => imageSizes(String(image)));
  const volume = request.product_volume;
  if (typeof volume === 'object' && volume !== null && !Array.isArray(volume))
    stored.product_volume = Object.fromEntries(
      Object.entries(volume).map(([key, value]) => [
        key,
        key === 'use_product_volume' ? value : withUnit(value),
      ]),
    );
  return stored;
}
