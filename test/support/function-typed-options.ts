/**
 * Every function-typed member of what the trellis package's entry points export, read from the declarations
 * with the TypeScript compiler: properties of exported interfaces and type aliases, the parameters of exported
 * functions, of exported classes' constructors and of their public methods, followed through the option types
 * they name (and the objects those functions answer with), each named as a user reads it:
 * `RateLimitConfigurationOptions.refusal`, `App.onError(handler)`, `RateLimitMeter.createCounter().add`.
 *
 * @example
 * const members = functionTypedOptions(); // Map { 'CorsOptions.origins' => 'packages/trellis/src/filters/cors/policy.ts', … }
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { REPO } from './packed-package.js';

/** The trellis package's entry points: subpath → source file (the "trellis-source" condition of its exports). */
function entryPoints(): string[] {
  const dir = join(REPO, 'packages', 'trellis');
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
  return Object.values(manifest.exports)
    .map((target) => (target as Record<string, unknown> | string)?.['trellis-source' as never] as string | undefined)
    .filter((source): source is string => typeof source === 'string')
    .map((source) => join(dir, source));
}

/** Declared outside the package (TypeScript's lib, @types/node, a peer dependency): not ours to follow. */
const foreign = (node: ts.Node | undefined) => node === undefined || node.getSourceFile().fileName.includes('/node_modules/');

export function functionTypedOptions(): Map<string, string> {
  const program = ts.createProgram(entryPoints(), {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    customConditions: ['trellis-source'],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const found = new Map<string, string>();
  const exported = new Set<ts.Symbol>();
  const roots: ts.Symbol[] = [];
  for (const file of entryPoints()) {
    const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
    for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      if (!exported.has(target)) roots.push(target);
      exported.add(target);
    }
  }

  const parts = (type: ts.Type): readonly ts.Type[] => (type.isUnion() || type.isIntersection() ? type.types : [type]);
  const callable = (type: ts.Type) => parts(type).some((t) => t.getCallSignatures().length > 0 || t.getConstructSignatures().length > 0);
  const isClassInstance = (type: ts.Type) => ((type.getSymbol()?.flags ?? 0) & ts.SymbolFlags.Class) !== 0;
  const seen = new Set<string>();

  const record = (name: string, declaration: ts.Node | undefined) => {
    if (!found.has(name)) found.set(name, declaration ? declaration.getSourceFile().fileName.replace(REPO, '') : '');
  };

  /** Follows what a function-typed member answers with: an object of the user's whose functions Trellis calls in turn. */
  const visitAnswers = (type: ts.Type, name: string) => {
    for (const part of parts(type)) {
      for (const signature of part.getCallSignatures()) visit(checker.getNonNullableType(signature.getReturnType()), `${name}()`);
    }
  };

  /** The members of an object type, named by the exported interface that declares them, or else by the path to them. */
  const visit = (type: ts.Type, label: string): void => {
    for (const part of parts(type)) {
      const element =
        checker.isArrayType(part) || checker.isTupleType(part) ? checker.getTypeArguments(part as ts.TypeReference) : undefined;
      if (element !== undefined) {
        for (const e of element) visit(e, label);
        continue;
      }
      const owner = part.aliasSymbol ?? part.getSymbol();
      if (foreign(owner?.declarations?.[0]) || isClassInstance(part)) continue;
      const key = `${label}|${checker.typeToString(part)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      for (const property of part.getProperties()) {
        if (property.name.startsWith('#') || property.name.startsWith('__#')) continue;
        const declaration = property.valueDeclaration ?? property.declarations?.[0];
        if (foreign(declaration)) continue;
        const parent = (property as ts.Symbol & { parent?: ts.Symbol }).parent;
        const ownerName = parent !== undefined && exported.has(parent) ? parent.name : label;
        const name = `${ownerName}.${property.name}`;
        const propertyType = checker.getNonNullableType(checker.getTypeOfSymbol(property));
        if (callable(propertyType)) {
          record(name, declaration);
          visitAnswers(propertyType, name);
        } else visit(propertyType, name);
      }
    }
  };

  /** A parameter of an exported function, constructor or method: a function given there is a hook too. */
  const visitParameters = (signatures: readonly ts.Signature[], owner: string) => {
    for (const signature of signatures) {
      for (const parameter of signature.parameters) {
        const declaration = parameter.valueDeclaration;
        const type = checker.getNonNullableType(checker.getTypeOfSymbol(parameter));
        const name = `${owner}(${parameter.name})`;
        if (callable(type)) {
          record(name, declaration);
          visitAnswers(type, name);
        } else visit(type, name);
      }
    }
  };

  for (const symbol of roots) {
    if (symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias)) visit(checker.getDeclaredTypeOfSymbol(symbol), symbol.name);
    if (symbol.flags & ts.SymbolFlags.Function) visitParameters(checker.getTypeOfSymbol(symbol).getCallSignatures(), symbol.name);
    if (symbol.flags & ts.SymbolFlags.Class) {
      const statics = checker.getTypeOfSymbol(symbol);
      visitParameters(statics.getConstructSignatures(), `new ${symbol.name}`);
      const instance = checker.getDeclaredTypeOfSymbol(symbol);
      for (const side of [instance, statics]) {
        for (const member of side.getProperties()) {
          if (member.name.startsWith('#') || member.name.startsWith('__#') || member.name === 'prototype') continue;
          const declaration = member.valueDeclaration;
          if (declaration !== undefined && ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Private) continue;
          visitParameters(checker.getTypeOfSymbol(member).getCallSignatures(), `${symbol.name}.${member.name}`);
        }
      }
    }
  }
  return found;
}
