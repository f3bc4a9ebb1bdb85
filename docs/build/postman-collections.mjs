// @ts-check
// A Postman collection per API, converted from the docs' copy of the bundled spec by Postman's own
// converter (openapi-to-postmanv2), folders by tag, parameters from the spec's examples; the
// collection's `baseUrl` variable starts at the API's local mock, so a partner can run it against
// the sandbox at once and point it elsewhere later.
import Converter from 'openapi-to-postmanv2';

/**
 * The Postman collection (v2.1) of `document`, with `baseUrl` set to `mockUrl`.
 * @param {object} document
 * @param {string} mockUrl
 * @returns {Promise<Record<string, unknown>>}
 */
export async function postmanCollection(document, mockUrl) {
  /** @type {any} */
  const result = await new Promise((resolve, reject) =>
    Converter.convertV2(
      { type: 'json', data: document },
      {
        folderStrategy: 'Tags',
        requestParametersResolution: 'Example',
        exampleParametersResolution: 'Example',
      },
      (/** @type {unknown} */ error, /** @type {unknown} */ converted) =>
        error ? reject(error) : resolve(converted),
    ),
  );
  if (!result?.result) throw new Error(`openapi-to-postmanv2: ${result?.reason ?? 'conversion failed'}`);
  const collection = result.output[0].data;
  const variables = Array.isArray(collection.variable) ? collection.variable : [];
  const baseUrl = variables.find((/** @type {{ key: string }} */ variable) => variable.key === 'baseUrl');
  if (baseUrl) baseUrl.value = mockUrl;
  else variables.push({ key: 'baseUrl', value: mockUrl, type: 'string' });
  collection.variable = variables;
  return collection;
}
