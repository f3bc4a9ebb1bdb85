// Waiting against our own mock without waiting: the mock's control API moves one mall's clock
// (`POST /__mock/malls/{mall}/clock`), so buckets drain and windows pass at once. Only for a base
// URL of one mall of our mock (`…/__mall/<mall>`); a real service is always waited for in real time.
import type { Sleep } from '../hooks/pacing.js';

/** A `Sleep` that advances the clock of the mall `baseUrl` addresses. */
export function mockClockSleep(baseUrl: string): Sleep {
  const url = new URL(baseUrl);
  const mall = /\/__mall\/([^/]+)/.exec(url.pathname)?.[1];
  if (!mall)
    throw new Error(
      `--mock-clock needs a base URL of one mall of our mock (…/__mall/<mall>), not ${baseUrl}`,
    );
  const control = `${url.origin}/__mock/malls/${mall}/clock`;
  return async (ms) => {
    const response = await fetch(control, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceMs: Math.ceil(ms) }),
    });
    if (!response.ok)
      throw new Error(`the mock's control API refused to move the clock (${response.status})`);
  };
}
