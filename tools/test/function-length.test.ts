// Small units: no function in a package's sources is longer than 150 lines (a longer one is a
// closure over shared state that cannot be read or tested alone; it becomes a state record plus
// module functions). Read with TypeScript's parser over every non-test module in `packages/*/src`;
// test files and test helpers (`testing/`) are left out.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../src/published-packages.mjs';

const longest = 150;

/** Every function in `text` over `longest` lines, as `name (lines)`. */
function longFunctions(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (last - first + 1 > longest) found.push(`${functionName(node)} (${last - first + 1})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** A function's own name, or the name it is assigned to or stored under. */
function functionName(node: ts.SignatureDeclaration): string {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name) {
    return parent.name.getText();
  }
  return '(anonymous)';
}

/** The non-test TypeScript modules of every package, relative to the repository root. */
function packageSources(): string[] {
  const packages = join(repoRoot, 'packages');
  return readdirSync(packages).flatMap((name) => {
    const src = join('packages', name, 'src');
    const files = readdirSync(join(repoRoot, src), { recursive: true, encoding: 'utf8' });
    return files
      .filter((file) => /\.(ts|mts|cts)$/.test(file) && !/\.(test|test-d|d)\.[mc]?ts$/.test(file))
      .filter((file) => !file.split('/').includes('testing'))
      .map((file) => join(src, file));
  });
}

describe('function length', () => {
  it('finds a function over 150 lines, however it is written', () => {
    const body = Array.from({ length: longest }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const text = `export const long = () => {\n${body}\n};\nfunction short() {\n  return 1;\n}\n`;
    expect(longFunctions('long.ts', text)).toEqual([`long (${longest + 2})`]);
  });

  it('is at most 150 lines in every package', () => {
    const files = packageSources();
    expect(files).toContain(join('packages', 'sandbox', 'src', 'views', 'admin-view.ts'));
    const long = files.flatMap((file) =>
      longFunctions(file, readFileSync(join(repoRoot, file), 'utf8')).map((found) => `${file}: ${found}`),
    );
    expect(long).toEqual([]);
  });
});
