// The names of the bundled documents: the platform's three APIs, in the order the docs list them,
// and the mocks' control API. The one list of API names in the repository; every package, script
// and test that goes over the APIs imports it. Browser-safe.

/** The three APIs of the platform, each a folder of `specs/` and a bundle of `@mall-api/specs`. */
export const apiNames = ['collection', 'admin', 'analytics'] as const;
/** One of {@link apiNames}. */
export type ApiName = (typeof apiNames)[number];
/** Every bundled document: the platform's APIs and the mocks' control API (which is no platform API). */
export type SpecName = ApiName | 'control';
