// The API report of every entry point, from the built declarations, by API Extractor: one api/<entry>.api.md per
// subpath the packages export, checked in, so that a change of what users get shows in review. Beside them,
// api/exports.md lists each entry point's names as values (a run-time export) or types, with their counts:
// API Extractor's reports show a class exported as a type (`export type { SafeHtml }`) as a class.
//
//   node scripts/api-report.mjs --check   (npm run lint) fails, naming the entry point, when the built
//                                         declarations differ from the checked-in reports, or when dist/ is
//                                         missing or older than src/
//   node scripts/api-report.mjs --update  (npm run api, after the build) writes the reports and prints how many
//                                         names and values each entry point exports
//
// API Extractor brings its own TypeScript, the same 6.0 release as the repository's, and reads the ES module
// declarations (dist/**/*.d.ts) tsdown writes; the CommonJS ones (.d.cts) are the same text.
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { URL, fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { CompilerState, Extractor, ExtractorConfig, ExtractorLogLevel } = require('@microsoft/api-extractor');
const ts = require('typescript');

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const REPORTS = join(ROOT, 'api');
const TEMP = join(ROOT, '.tmp', 'api');
const PACKAGES = ['packages/trellis', 'packages/harness'];

const mode = process.argv.includes('--update') ? 'update' : process.argv.includes('--check') ? 'check' : undefined;
if (!mode) {
  console.error('usage: node scripts/api-report.mjs --check | --update');
  process.exit(2);
}

/** The newest modification time of the files under `dir` (tests left out: they are not built). */
function newest(dir) {
  let latest = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) latest = Math.max(latest, newest(path));
    else if (!/\.test(-suite)?\.ts$/.test(name)) latest = Math.max(latest, stat.mtimeMs);
  }
  return latest;
}

/** Each entry point of a package: `trellis/ratelimit` → its built declarations and the name of its report. */
function entryPoints(dir) {
  const manifest = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8'));
  const out = [];
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    const types = target?.import?.types;
    if (typeof types !== 'string') continue;
    const entry = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
    out.push({ entry, declarations: join(ROOT, dir, types), report: entry.replace(/\//g, '-') });
  }
  return out;
}

/** The compiler options API Extractor reads the declarations with: as a Node.js project of a user's would. */
const compilerOptions = {
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  target: 'ES2022',
  lib: ['ES2023', 'ESNext.Decorators', 'DOM'],
  types: ['node'],
  strict: true,
  skipLibCheck: true,
};

/** The names one entry point exports: values (a run-time export) and types (a type-only export of a class is a type). */
function exportsOf(program, file) {
  const checker = program.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(file));
  const values = [];
  const types = [];
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    let typeOnly = false;
    for (let alias = exported; alias && alias.flags & ts.SymbolFlags.Alias; alias = checker.getImmediateAliasedSymbol(alias)) {
      const d = alias.declarations?.[0];
      if (d && (ts.isExportSpecifier(d) || ts.isImportSpecifier(d)) && (d.isTypeOnly || d.parent.parent.isTypeOnly)) typeOnly = true;
    }
    const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    (!typeOnly && target.flags & ts.SymbolFlags.Value ? values : types).push(exported.name);
  }
  const byName = (a, b) => a.localeCompare(b, 'en');
  return { values: values.sort(byName), types: types.sort(byName) };
}

/** api/exports.md: each entry point's names, values and types apart, with the counts. */
function exportsReport(entries) {
  const count = (list) => list.reduce((n, e) => ({ names: n.names + e.values.length + e.types.length, values: n.values + e.values.length }), { names: 0, values: 0 });
  const lines = [
    '# Exports of each entry point',
    '',
    'Written by `npm run api` (scripts/api-report.mjs) from the built declarations, and checked by `npm run lint`',
    'with the API report of each entry point beside it. A value is a run-time export; a type is an interface, a type',
    'alias, or a class exported as a type only.',
    '',
    '| Entry point | Names | Values |',
    '|---|---|---|',
  ];
  for (const pkg of [...new Set(entries.map((e) => e.pkg))]) {
    const mine = entries.filter((e) => e.pkg === pkg);
    for (const e of mine) lines.push(`| \`${e.entry}\` | ${e.values.length + e.types.length} | ${e.values.length} |`);
    const total = count(mine);
    lines.push(`| **${pkg}** | **${total.names}** | **${total.values}** |`);
  }
  for (const e of entries) {
    lines.push('', `## \`${e.entry}\``, '');
    lines.push(`Values: ${e.values.map((n) => `\`${n}\``).join(', ') || 'none'}.`, '');
    lines.push(`Types: ${e.types.map((n) => `\`${n}\``).join(', ') || 'none'}.`);
  }
  return `${lines.join('\n')}\n`;
}

let failed = false;
const summary = [];
mkdirSync(REPORTS, { recursive: true });
rmSync(TEMP, { recursive: true, force: true });
mkdirSync(TEMP, { recursive: true });

for (const dir of PACKAGES) {
  const entries = entryPoints(dir);
  const missing = entries.filter((e) => !existsSync(e.declarations));
  if (missing.length > 0) {
    console.error(`api: ${missing.map((e) => e.entry).join(', ')} not built (${relative(ROOT, missing[0].declarations)} is missing): npm run build first`);
    process.exit(1);
  }
  const builtAt = Math.min(...entries.map((e) => statSync(e.declarations).mtimeMs));
  if (mode === 'check' && builtAt < newest(join(ROOT, dir, 'src'))) {
    console.error(`api: ${dir}/dist is older than ${dir}/src: npm run build (or npm run api) first, so the reports are checked against the sources as they are`);
    process.exit(1);
  }

  let compilerState;
  for (const { entry, declarations, report } of entries) {
    const config = ExtractorConfig.prepare({
      configObject: {
        projectFolder: join(ROOT, dir),
        mainEntryPointFilePath: declarations,
        compiler: { overrideTsconfig: { compilerOptions, files: entries.map((e) => e.declarations) } },
        // The types the exports' signatures use are in the report too, exported or not (an option object's
        // shape is part of what users get), each once.
        apiReport: { enabled: true, reportFolder: REPORTS, reportTempFolder: TEMP, reportFileName: report, includeForgottenExports: true },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        messages: {
          // What else API Extractor finds goes into the report, where a change to it is reviewed; none of it fails
          // by itself. Left out: release tags (@public, @beta; every exported name is public), missing doc comments,
          // a type used but not exported here (often it is, by another entry point; its text is in the report), and
          // a {@link} in a doc comment to a name of another entry point.
          extractorMessageReporting: {
            default: { logLevel: 'none', addToApiReportFile: true },
            'ae-missing-release-tag': { logLevel: 'none', addToApiReportFile: false },
            'ae-undocumented': { logLevel: 'none', addToApiReportFile: false },
            'ae-forgotten-export': { logLevel: 'none', addToApiReportFile: false },
            'ae-unresolved-link': { logLevel: 'none', addToApiReportFile: false },
          },
          tsdocMessageReporting: { default: { logLevel: 'none', addToApiReportFile: false } },
          compilerMessageReporting: { default: { logLevel: 'error', addToApiReportFile: false } },
        },
      },
      configObjectFullPath: join(ROOT, dir, 'api-extractor.json'),
      packageJsonFullPath: join(ROOT, dir, 'package.json'),
    });
    compilerState ??= CompilerState.create(config, { additionalEntryPoints: entries.map((e) => e.declarations) });
    const problems = [];
    const result = Extractor.invoke(config, {
      localBuild: mode === 'update',
      compilerState,
      messageCallback(message) {
        if (message.logLevel === ExtractorLogLevel.Error || message.logLevel === ExtractorLogLevel.Warning)
          problems.push(message.formatMessageWithLocation(ROOT));
        message.handled = true;
      },
    });
    const file = `api/${report}.api.md`;
    if (result.errorCount > 0 && problems.some((p) => !p.includes('You have changed the API signature'))) {
      console.error(`api: ${entry}: API Extractor failed:\n  ${problems.join('\n  ')}`);
      failed = true;
    } else if (mode === 'check' && result.apiReportChanged) {
      const wrote = join(TEMP, `${report}.api.md`);
      console.error(
        `api: ${entry} differs from ${file}${existsSync(join(REPORTS, `${report}.api.md`)) ? '' : ' (no report yet)'}: ` +
          `what users get changed. Review the change, then run npm run api and commit ${file}.`,
      );
      console.error(lineDiff(readIfExists(join(REPORTS, `${report}.api.md`)), readIfExists(wrote)));
      failed = true;
    }
    summary.push({ entry, pkg: entry.split('/')[0], file, changed: result.apiReportChanged, ...exportsOf(compilerState.program, declarations) });
  }
}

const listing = exportsReport(summary);
const listingFile = join(REPORTS, 'exports.md');
if (mode === 'update') {
  const changed = readIfExists(listingFile) !== listing;
  if (changed) writeFileSync(listingFile, listing);
  const width = Math.max(...summary.map((s) => s.entry.length));
  for (const s of summary) {
    const names = s.values.length + s.types.length;
    console.log(`${s.entry.padEnd(width)}  ${String(names).padStart(3)} names, ${String(s.values.length).padStart(3)} values  ${s.changed ? `${s.file} written` : ''}`);
  }
  for (const pkg of new Set(summary.map((s) => s.pkg))) {
    const mine = summary.filter((s) => s.pkg === pkg);
    const names = mine.reduce((n, s) => n + s.values.length + s.types.length, 0);
    console.log(`${pkg}: ${names} names, ${mine.reduce((n, s) => n + s.values.length, 0)} values in all`);
  }
  if (changed) console.log('api/exports.md written');
} else if (readIfExists(listingFile) !== listing) {
  console.error('api: the names or values of an entry point differ from api/exports.md. Review the change, then run npm run api and commit it.');
  console.error(lineDiff(readIfExists(listingFile), listing));
  failed = true;
}
rmSync(join(ROOT, '.tmp', 'api'), { recursive: true, force: true });
process.exit(failed ? 1 : 0);

function readIfExists(file) {
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

/** The lines only one of two texts has, marked - (the report) and + (the build), with the line of the report. */
function lineDiff(before, after) {
  const a = before.split('\n');
  const b = after.split('\n');
  const inB = new Set(b);
  const inA = new Set(a);
  const out = [];
  a.forEach((line, i) => inB.has(line) || out.push(`  ${i + 1}: - ${line}`));
  b.forEach((line) => inA.has(line) || out.push(`      + ${line}`));
  return out.slice(0, 40).join('\n') + (out.length > 40 ? `\n  … and ${out.length - 40} more lines` : '');
}
