// @ts-check
// The rate-limit modules of @mall-api/rate-limit (`src/generated/`): per API, `<api>-limit.ts` holds
// its root `x-rate-limit` extension without its prose (`description`, `x-` keys) and what only a
// server needs (`counted-per`), and its `ApiLimitModel`: that limit with the one algorithm the
// extension names, imported from `src/algorithms/<algorithm>.ts`. A client imports its API's module
// alone, so its bundle carries one algorithm and no spec. `rate-limits.ts` gathers every API's
// extension by name (the package's `ApiName` is its keys).

/** @param {string} name a kebab-case name, e.g. `leaky-bucket` */
const camelCase = (name) => name.replace(/-(\w)/g, (_, letter) => letter.toUpperCase());

/**
 * The file name and text of each rate-limit module.
 * @param {readonly { api: string, model: import('@mall-api/spec-model').SpecModel }[]} specs
 * @returns {{ file: string, text: string }[]}
 */
export function rateLimitModules(specs) {
  const modules = specs.map(({ api, model }) => {
    const extension = model.document['x-rate-limit'];
    if (typeof extension !== 'object' || extension === null || Array.isArray(extension))
      throw new Error(`specs/${api}/openapi.yaml declares no x-rate-limit object`);
    // What a client needs: the prose, the provenance and `counted-per` (the server's key) stay out.
    const dropped = ['description', 'counted-per'];
    const rules = Object.fromEntries(
      Object.entries(extension).filter(([key]) => !dropped.includes(key) && !key.startsWith('x-')),
    );
    const algorithm = String(rules.algorithm);
    if (!/^[a-z]+(-[a-z]+)*$/.test(algorithm)) throw new Error(`${api}: not an algorithm name: ${algorithm}`);
    return {
      file: `${api}-limit.ts`,
      text:
        `import { ${camelCase(algorithm)} } from '../algorithms/${algorithm}.js';\n` +
        `import { limitModel } from '../limit-model.js';\n\n` +
        `/** The ${api} API's root \`x-rate-limit\` extension, as its bundle states it. */\n` +
        `export const ${api}RateLimit = ${JSON.stringify(rules, null, 2)} as const;\n\n` +
        `/** The ${api} API's limit, run by the ${algorithm} algorithm alone. */\n` +
        `export const ${api}LimitModel = limitModel(${api}RateLimit, '${api}', ${camelCase(algorithm)});\n`,
    };
  });
  const names = specs.map(({ api }) => api);
  modules.push({
    file: 'rate-limits.ts',
    text:
      names.map((api) => `import { ${api}RateLimit } from './${api}-limit.js';\n`).join('') +
      `\n/** Every API's root \`x-rate-limit\` extension, by API name. */\n` +
      `export const rateLimits = { ${names.map((api) => `${api}: ${api}RateLimit`).join(', ')} } as const;\n`,
  });
  return modules;
}
