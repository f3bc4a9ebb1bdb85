// Preloaded into the Dredd process (`node --require`) before Dredd itself. Dredd 14 hands its hook
// files a deep copy of its configuration, which holds every parsed API description, and `clone`
// copies in time quadratic in its size: a third of the admin run's CPU (apiaryio/dredd#1813). Our
// hooks never read `hooks.configuration`: their copy shares the parsed descriptions (which Dredd
// does not change after parsing) and copies the rest as before. Other uses of `clone` are unchanged.
const { createRequire } = require('node:module') as typeof import('node:module');

type Clone = ((value: unknown, ...options: unknown[]) => unknown) & Record<string, unknown>;

const fromDredd = createRequire(require.resolve('dredd/package.json'));
const clonePath = fromDredd.resolve('clone');
const clone = fromDredd(clonePath) as Clone;

/** `clone`, except that Dredd's configuration keeps its parsed API descriptions by reference. */
const sharingDescriptions = Object.assign((value: unknown, ...options: unknown[]): unknown => {
  if (typeof value !== 'object' || value === null || !('apiDescriptions' in value))
    return clone(value, ...options);
  const { apiDescriptions, ...rest } = value as { apiDescriptions: unknown };
  return { ...(clone(rest, ...options) as object), apiDescriptions };
}, clone);

const cached = require.cache[clonePath];
if (cached) cached.exports = sharingDescriptions;
