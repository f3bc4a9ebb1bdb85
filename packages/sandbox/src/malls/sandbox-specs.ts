// The specs the sandbox answers by: one spec model per API (admin, collection, analytics). The
// mocks pass the models of the APIs they compiled, so a changed spec a test serves is the one the
// sandbox checks fixtures, snapshots and records against and the one that says which operations
// exist. `shippedSandboxSpecs` reads the shipped bundles instead: the default of a sandbox created
// standalone (its own tests, scripts), never used by the mocks.
import { apiNames, loadSpec, type SpecModel } from '@mall-api/spec-model';
import type { SandboxApi } from '../protocol.js';

/** The spec model of each API the sandbox answers. */
export type SandboxSpecs = Readonly<Record<SandboxApi, SpecModel>>;

/** The models of the shipped bundles (`@mall-api/specs`), read once per process. */
export async function shippedSandboxSpecs(): Promise<SandboxSpecs> {
  const models = await Promise.all(apiNames.map((api) => loadSpec(api)));
  return Object.fromEntries(apiNames.map((api, i) => [api, models[i]])) as Record<SandboxApi, SpecModel>;
}
