// Every exported name means one thing across all entry points of both packages: a name exported from two
// entry points must be the same declaration there. Within a package a name has one entry point: a class a user
// imports from `trellis/ratelimit/store-kit` is not also exported by `trellis/ratelimit/redis`. Each entry point
// is its package's file in src/public/ (the rooms' index.ts files are what sibling rooms import).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Each package's entry points: subpath → source file (the "trellis-source" condition of its exports). */
function entryPoints(): Map<string, string> {
  const out = new Map<string, string>();
  for (const dir of ['packages/trellis', 'packages/harness']) {
    const manifest = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as {
      name: string;
      exports: Record<string, unknown>;
    };
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      const source = (target as Record<string, unknown> | string)?.['trellis-source' as never] as string | undefined;
      if (typeof source !== 'string') continue;
      out.set(`${manifest.name}${subpath === '.' ? '' : subpath.slice(1)}`, join(ROOT, dir, source));
    }
  }
  return out;
}

/** Each entry point's exported names (the source's exports, as the declarations carry them). */
function exportsOf(entries: Map<string, string>): { checker: ts.TypeChecker; exports: Map<string, ts.Symbol[]> } {
  const program = ts.createProgram([...entries.values()], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    customConditions: ['trellis-source'],
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const exports = new Map<string, ts.Symbol[]>();
  for (const [entry, file] of entries) {
    const source = program.getSourceFile(file);
    assert.ok(source, `${entry}: ${file} is in the program`);
    const moduleSymbol = checker.getSymbolAtLocation(source);
    assert.ok(moduleSymbol, `${entry} is a module`);
    exports.set(entry, checker.getExportsOfModule(moduleSymbol));
  }
  return { checker, exports };
}

test("every entry point is its package's file in src/public/", () => {
  for (const [entry, file] of entryPoints()) assert.match(file.replace(ROOT, ''), /^packages\/[^/]+\/src\/public\/[^/]+\.ts$/, entry);
});

test('within a package, each name is exported by one entry point', { timeout: 120_000 }, () => {
  const { exports } = exportsOf(entryPoints());
  /** package → name → the entry points that export it. */
  const byPackage = new Map<string, Map<string, string[]>>();
  for (const [entry, symbols] of exports) {
    const pkg = entry.startsWith('trellis-harness') ? 'trellis-harness' : 'trellis';
    let names = byPackage.get(pkg);
    if (!names) byPackage.set(pkg, (names = new Map()));
    for (const symbol of symbols) names.set(symbol.name, [...(names.get(symbol.name) ?? []), entry]);
  }
  const twice = [...byPackage.values()].flatMap((names) =>
    [...names].filter(([, from]) => from.length > 1).map(([name, from]) => `${name}: ${from.join(', ')}`),
  );
  assert.deepEqual(twice, [], 'a name exported by two entry points of one package');
});

test('every exported name means one thing across all entry points', { timeout: 120_000 }, () => {
  const entries = entryPoints();
  assert.ok(entries.size >= 8, `entry points: ${[...entries.keys()].join(', ')}`);
  const { checker, exports } = exportsOf(entries);
  /** name → declaration identity → the entry points that export it so. */
  const meanings = new Map<string, Map<string, string[]>>();
  for (const [entry, symbols] of exports) {
    for (const exported of symbols) {
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const declaration = target.declarations?.[0];
      const identity = declaration ? `${declaration.getSourceFile().fileName.replace(ROOT, '')}:${declaration.pos}` : target.name;
      let byIdentity = meanings.get(exported.name);
      if (!byIdentity) meanings.set(exported.name, (byIdentity = new Map()));
      byIdentity.set(identity, [...(byIdentity.get(identity) ?? []), entry]);
    }
  }
  const ambiguous = [...meanings].filter(([, byIdentity]) => byIdentity.size > 1);
  assert.deepEqual(
    ambiguous.map(
      ([name, byIdentity]) => `${name}: ${[...byIdentity].map(([identity, from]) => `${from.join(', ')} → ${identity}`).join(' | ')}`,
    ),
    [],
    'a name exported with two meanings',
  );
});
