// What a change to a mall's data (reset, fixture, restore) answers: what the mall now holds, or
// the violations that kept it from changing at all.
import type { Violation } from '../sandbox-result.js';

/** How many records a mall holds (placements: every section and main-group entry). */
export type MallCounts = {
  readonly categories: number;
  readonly products: number;
  readonly bundles: number;
  readonly placements: number;
};

/** A refused change: nothing was changed. */
export interface RefusedChange {
  readonly ok: false;
  /** 409: the mall changed meanwhile, and the same change may succeed when asked again; else 422. */
  readonly status?: 409;
  readonly message: string;
  readonly violations: readonly Violation[];
}

/** A change to a mall: what it now holds, or why nothing changed. */
export type MallOutcome = { readonly ok: true; readonly counts: MallCounts } | RefusedChange;

/** The refusal of a change, its message naming every violation. */
export const refusedChange = (violations: readonly Violation[]): RefusedChange => ({
  ok: false,
  message: violations.map((v) => `${v.name} ${v.message}`).join('; '),
  violations,
});

/** The refusal of a change that met another change to the mall (409: ask again). */
export const conflict = (message: string): RefusedChange => ({
  ok: false,
  status: 409,
  message,
  violations: [{ location: 'body', name: 'mall', message }],
});

/** The refusal of a fixture load the mall was written during (an API write would be lost). */
export const writtenDuringLoad = (): RefusedChange =>
  conflict('the mall changed while the fixture loaded (an API write): nothing was loaded');
