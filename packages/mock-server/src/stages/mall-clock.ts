// Stage: loads the clock of the request's mall once, as soon as the mall is known (after the
// caller is identified), so every later reading of that mall's time in this request — buckets,
// tokens issued, sandbox records, the journal — sees a clock moved on any replica (on Redis from
// the copy Redis keeps valid, so it asks Redis only when the clock moved). It never answers.
import type { MallClocks } from '@mall-api/mall-state';
import type { Identified } from '../pipeline/phases.js';
import type { Check } from '../pipeline/stage.js';

/** Creates the stage over the malls' clocks. */
export function mallClock(clocks: MallClocks): Check<Identified> {
  return {
    name: 'mall-clock',
    run: ({ mallId }) => clocks.refresh(mallId).then(() => undefined),
  };
}
