// The spec model of every API a process knows, gathered once at the composition root
// (`startMockServers`, `startMockServer`, `createMockApi`, the validating proxy): the models a
// caller passes (a test's changed copies), the shipped bundle for each API not given. The control
// API checks fault and journal filters against them and the sandbox answers by them, so both
// follow the specs the mocks serve.
import { type ApiName, apiNames, loadSpec, type SpecModel } from '@mall-api/spec-model';

/** The spec model of each API. */
export type ApiSpecs = Readonly<Record<ApiName, SpecModel>>;

/** The given models, and the shipped bundle of each API without one. */
export async function apiSpecsOf(
  given: Partial<Record<ApiName, SpecModel | undefined>> = {},
): Promise<ApiSpecs> {
  const models = await Promise.all(apiNames.map((api) => given[api] ?? loadSpec(api)));
  return Object.fromEntries(apiNames.map((api, i) => [api, models[i]])) as Record<ApiName, SpecModel>;
}
