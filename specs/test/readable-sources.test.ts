// The YAML sources read the same in any tool: a YAML 1.1 loader (which turns unquoted dates into
// date objects) finds only strings where we wrote dates, no description starts with `undefined`,
// and the OAuth flow URLs are plain URLs (no server-variable braces).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
// spec-model's one list of API names, from its source: spec-model depends on this package.
import { apiNames } from '../../packages/spec-model/src/api-names.js';

const specs = join(import.meta.dirname, '..');
const sources = [...apiNames, 'shared'].flatMap((folder) =>
  readdirSync(join(specs, folder), { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.yaml'))
    .map((file) => join(folder, file)),
);

/** Every value in a parsed document, with its path. */
function* nodes(value: unknown, path: string): Generator<[string, unknown]> {
  yield [path, value];
  if (Array.isArray(value)) for (const [i, item] of value.entries()) yield* nodes(item, `${path}/${i}`);
  else if (typeof value === 'object' && value !== null && !(value instanceof Date))
    for (const [key, item] of Object.entries(value)) yield* nodes(item, `${path}/${key}`);
}

describe('YAML sources', () => {
  it('hold their dates and date-times as quoted strings, even for a YAML 1.1 loader', () => {
    expect(sources.length).toBeGreaterThan(300);
    const dates = sources.flatMap((file) => {
      const parsed = YAML.parse(readFileSync(join(specs, file), 'utf8'), { version: '1.1' }) as unknown;
      return [...nodes(parsed, file)].filter(([, value]) => value instanceof Date).map(([path]) => path);
    });
    expect(dates).toEqual([]);
  });

  it('have no description starting with undefined', () => {
    const broken = sources.flatMap((file) =>
      [...nodes(YAML.parse(readFileSync(join(specs, file), 'utf8')), file)]
        .filter(
          ([path, value]) => path.endsWith('/description') && String(value).trim().startsWith('undefined'),
        )
        .map(([path]) => path),
    );
    expect(broken).toEqual([]);
  });

  it('give OAuth flow URLs as plain URLs', () => {
    for (const api of ['admin', 'analytics']) {
      const root = YAML.parse(readFileSync(join(specs, api, 'openapi.yaml'), 'utf8'));
      const flow = root.components.securitySchemes.oauth2.flows.authorizationCode;
      for (const url of [flow.authorizationUrl, flow.tokenUrl, flow.refreshUrl]) {
        expect(url).not.toMatch(/[{}]/);
        expect(new URL(url).protocol).toBe('https:');
      }
    }
  });
});
