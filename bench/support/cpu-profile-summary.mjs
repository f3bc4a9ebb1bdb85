// Benchmark support: summarises a V8 .cpuprofile (what `node --cpu-prof` writes) as the functions
// with the most self time (samples in the function itself) and the most inclusive time (samples
// in it or anything it called), each as a share of all samples, named `function file:line`, and
// the self time grouped by the package that asked for it: the nearest frame on the stack in a
// package (`node_modules/<name>` or the repository's `packages/<name>`), so a socket write counts
// for the Redis client or the HTTP reply that made it; `node` when no package is on the stack.
// Reads the profile's JSON only; taking the profile is the caller's job.
import { readFileSync } from 'node:fs';

/**
 * @typedef {{ id: number, callFrame: { functionName: string, url: string, lineNumber: number },
 *   children?: number[] }} ProfileNode
 * @typedef {{ nodes: ProfileNode[], samples: number[] }} CpuProfile
 * @typedef {{ name: string, share: number }} Hotspot
 */

/**
 * `function file:line` of a call frame, the file shortened to what follows `node_modules/` or `packages/`.
 * @param {ProfileNode['callFrame']} frame
 */
const frameName = (frame) => {
  const file = frame.url.replace(/^.*\/(node_modules|packages)\//, '').replace(/^file:\/\//, '');
  return `${frame.functionName || '(anonymous)'} ${file || '(native)'}:${frame.lineNumber + 1}`;
};

/**
 * The top functions by self and by inclusive share of the samples.
 * @param {CpuProfile} profile
 * @param {number} [top]
 * @returns {{ samples: number, self: Hotspot[], inclusive: Hotspot[], packages: Hotspot[] }}
 */
export function summariseProfile(profile, top = 15) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  /** @type {Map<number, number>} */
  const hits = new Map();
  for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  /** @type {Map<number, number>} parent of each node */
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  /** @type {Map<string, number>} */
  const self = new Map();
  /** @type {Map<string, number>} */
  const inclusive = new Map();
  /** @type {Map<string, number>} */
  const packages = new Map();
  for (const [id, count] of hits) {
    const node = byId.get(id);
    if (!node) continue;
    const name = frameName(node.callFrame);
    self.set(name, (self.get(name) ?? 0) + count);
    if (!/^\((root|program|idle)\)/.test(name)) {
      const owner = packageOnStack(id, byId, parent);
      packages.set(owner, (packages.get(owner) ?? 0) + count);
    }
    // Each function on the sample's stack counts once, however deep its recursion.
    const seen = new Set();
    for (let at = /** @type {number | undefined} */ (id); at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (!frame) break;
      const onStack = frameName(frame);
      if (seen.has(onStack)) continue;
      seen.add(onStack);
      inclusive.set(onStack, (inclusive.get(onStack) ?? 0) + count);
    }
  }
  const total = profile.samples.length;
  /** @param {Map<string, number>} counts */
  const ranked = (counts) =>
    [...counts]
      .filter(([name]) => !/^\((root|program|idle)\)/.test(name))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, count]) => ({ name, share: count / total }));
  return { samples: total, self: ranked(self), inclusive: ranked(inclusive), packages: ranked(packages) };
}

/**
 * The package of the nearest frame on a sample's stack that is in one, else `node`.
 * @param {number} id
 * @param {Map<number, ProfileNode>} byId
 * @param {Map<number, number>} parent
 */
function packageOnStack(id, byId, parent) {
  for (let at = /** @type {number | undefined} */ (id); at !== undefined; at = parent.get(at)) {
    const url = byId.get(at)?.callFrame.url ?? '';
    const owner = /\/(?:node_modules|packages)\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
    if (owner) return owner;
  }
  return 'node';
}

/**
 * The summary of a .cpuprofile file as printable lines.
 * @param {string} file
 * @param {number} [top]
 */
export function profileReport(file, top = 15) {
  const { samples, self, inclusive, packages } = summariseProfile(
    JSON.parse(readFileSync(file, 'utf8')),
    top,
  );
  /** @param {Hotspot} spot */
  const line = (spot) => `  ${(spot.share * 100).toFixed(1).padStart(5)}%  ${spot.name}`;
  return [
    `${samples} samples`,
    'self time:',
    ...self.map(line),
    'inclusive time:',
    ...inclusive.map(line),
    'self time by the package on the stack that asked for it:',
    ...packages.map(line),
  ].join('\n');
}
