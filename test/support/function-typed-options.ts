/**
 * Every function-typed member of what the trellis package's entry points export, read from the declarations
 * with the TypeScript compiler: properties of exported interfaces and type aliases, the parameters of exported
 * functions, of exported classes' constructors and of their public methods, followed through the option types
 * they name (and the objects those functions answer with) and the classes whose instances they hand out
 * (`app.services`), each named as a user reads it, by the interface that declares it whether or not an entry
 * point exports that interface by name: `RateLimitConfigurationOptions.refusal`, `App.onError(handler)`,
 * `RateLimitMeter.createCounter().add`.
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
  /** What the entry points export by name (`exported` grows with the types their signatures name). */
  const entryExports = new Set(exported);

  const parts = (type: ts.Type): readonly ts.Type[] => (type.isUnion() || type.isIntersection() ? type.types : [type]);
  const callable = (type: ts.Type) => parts(type).some((t) => t.getCallSignatures().length > 0 || t.getConstructSignatures().length > 0);
  const isClassInstance = (type: ts.Type) => ((type.getSymbol()?.flags ?? 0) & ts.SymbolFlags.Class) !== 0;
  /**
   * An interface, type alias or class that an entry point exports, or that its own module exports (a name the
   * package's declarations carry, such as `AppOptions`): members it declares are named after it.
   */
  const named = (symbol: ts.Symbol | undefined): symbol is ts.Symbol => {
    if (symbol === undefined) return false;
    if (entryExports.has(symbol)) return true;
    const declaration = symbol.declarations?.[0];
    return (
      (symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Class)) !== 0 &&
      declaration !== undefined &&
      !foreign(declaration) &&
      (ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Export) !== 0
    );
  };
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
        const ownerName = named(parent) ? parent.name : label;
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

  // The interfaces, type aliases and classes of the package that the exports' signatures name, and those these
  // name in turn: what a user of the entry points meets, exported by name or not (`app.services`, the answer of
  // `app.inject()`), as API Extractor's reports show them. They join the roots.
  const OWN_TYPE = ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Class;
  const reachSignatures = (signatures: readonly ts.Signature[]) => {
    for (const signature of signatures) {
      for (const parameter of signature.parameters) reach(checker.getTypeOfSymbol(parameter));
      reach(signature.getReturnType());
    }
  };
  const reachMembers = (type: ts.Type) => {
    for (const property of type.getProperties()) {
      const declaration = property.valueDeclaration ?? property.declarations?.[0];
      if (property.name.startsWith('#') || property.name.startsWith('__#') || foreign(declaration)) continue;
      if (declaration !== undefined && ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Private) continue;
      reach(checker.getTypeOfSymbol(property));
    }
    reachSignatures(type.getCallSignatures());
    reachSignatures(type.getConstructSignatures());
  };
  const reached = new Set<ts.Type>();
  function reach(type: ts.Type): void {
    if (reached.has(type)) return;
    reached.add(type);
    const owner = type.aliasSymbol ?? type.getSymbol();
    const ownType = owner !== undefined && (owner.flags & OWN_TYPE) !== 0 && !foreign(owner.declarations?.[0]);
    if (ownType && !exported.has(owner)) {
      exported.add(owner);
      roots.push(owner);
    }
    for (const argument of type.aliasTypeArguments ?? []) reach(argument);
    if ((type.flags & ts.TypeFlags.Object) !== 0 && ((type as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference) !== 0)
      for (const argument of checker.getTypeArguments(type as ts.TypeReference)) reach(argument);
    if (ownType) return;
    if (type.isUnion() || type.isIntersection()) for (const part of type.types) reach(part);
    else if (!foreign(owner?.declarations?.[0]) && (type.flags & ts.TypeFlags.Object) !== 0) reachMembers(type);
  }
  for (const symbol of roots) {
    if (symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias)) reachMembers(checker.getDeclaredTypeOfSymbol(symbol));
    if (symbol.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Variable)) reach(checker.getTypeOfSymbol(symbol));
    if (symbol.flags & ts.SymbolFlags.Class) {
      reachMembers(checker.getDeclaredTypeOfSymbol(symbol));
      reachMembers(checker.getTypeOfSymbol(symbol));
    }
  }

  // A type without a name of its own (one its module keeps to itself) is read where a named one leads to it.
  for (const symbol of roots.filter(named)) {
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
