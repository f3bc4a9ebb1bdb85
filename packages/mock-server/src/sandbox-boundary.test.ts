// The mocks run without the optional @mall-api/sandbox installed: outside a dynamic import (the
// sandbox loader, the fixture recorder) every import of it is type-only, so it vanishes from the
// built JavaScript. cli.int.test.ts runs the example mode without the package; this names the file.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const source = join(import.meta.dirname);
const shipped = readdirSync(source, { recursive: true, encoding: 'utf8' }).filter(
  (file) => file.endsWith('.ts') && !file.endsWith('.test.ts'),
);
/** The static import and export statements of a file that name `@mall-api/sandbox` or a subpath. */
const sandboxStatements = (file: string): string[] =>
  readFileSync(join(source, file), 'utf8').match(
    /^(import|export)\b[^;]*?from '@mall-api\/sandbox(\/[\w-]+)?';/gm,
  ) ?? [];

describe('the sandbox boundary', () => {
  it('imports @mall-api/sandbox statically only with import type', () => {
    const valueImports = shipped.flatMap((file) =>
      sandboxStatements(file)
        .filter((statement) => !/^(import|export) type /.test(statement))
        .map((statement) => `${file}: ${statement}`),
    );
    expect(valueImports).toEqual([]);
  });
  it('reads the sandbox’s types from its protocol, with no copy of them here', () => {
    const typed = shipped.filter((file) =>
      sandboxStatements(file).some((statement) => statement.endsWith("from '@mall-api/sandbox/protocol';")),
    );
    expect(typed).toContain(join('stages', 'answer.ts'));
    expect(typed).toContain(join('operations', 'sandbox-outcome.ts'));
    expect(shipped).not.toContain('sandbox-gateway.ts');
  });
});
