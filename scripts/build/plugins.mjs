// Rolldown plugins shared by the packages' tsdown configurations.
import { readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, sep } from 'node:path';

const insideNodeModules = (file) => typeof file === 'string' && file.split(sep).includes('node_modules');

/**
 * A bundled CommonJS package's `require('node:…')` becomes `process.getBuiltinModule(…)`: an ES module has no
 * `require`, and one declared in a banner would clash with the one a user's own bundler declares.
 */
export function builtinsOfBundledPackages() {
  const PREFIX = '\0builtin:';
  return {
    name: 'builtins-of-bundled-packages',
    resolveId(source, importer, extra) {
      if (!isBuiltin(source) || !insideNodeModules(importer) || extra?.kind !== 'require-call') return null;
      return PREFIX + source;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      return `module.exports = process.getBuiltinModule(${JSON.stringify(id.slice(PREFIX.length))});`;
    },
  };
}

/** Writes THIRD-PARTY-LICENSES.md beside the output: the licence of every npm package bundled into it. */
export function thirdPartyLicences(title) {
  return {
    name: 'third-party-licences',
    generateBundle(_options, bundle) {
      const folders = new Set();
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        for (const id of chunk.moduleIds) {
          if (!insideNodeModules(id)) continue;
          const parts = id.split(sep);
          const at = parts.lastIndexOf('node_modules');
          folders.add(parts.slice(0, at + (parts[at + 1].startsWith('@') ? 3 : 2)).join(sep));
        }
      }
      if (folders.size === 0) return;
      const notices = [...folders].sort().map((dir) => {
        const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
        const licenceFile = readdirSync(dir).find((name) => /^(licen[cs]e|copying)(\.|$)/i.test(name));
        if (licenceFile === undefined) throw new Error(`${manifest.name} is bundled but has no licence file`);
        const text = readFileSync(join(dir, licenceFile), 'utf8').trim();
        return `## ${manifest.name} ${manifest.version} (${manifest.license})\n\n\`\`\`\n${text}\n\`\`\`\n`;
      });
      this.emitFile({
        type: 'asset',
        fileName: 'THIRD-PARTY-LICENSES.md',
        source: `# Third-party licences\n\nThese packages are bundled into ${title}'s files in dist/.\n\n${notices.join('\n')}`,
      });
    },
  };
}

/**
^ * TypeScript projects compiled to CommonJS with `"module": "node16"` read the `.d.cts` declarations, where a
 * type imported from a package that is only an ES module must say so (`resolution-mode`) and be type-only.
 * The declaration bundler writes such imports without either; this names the packages and says both.
 */
export function esmOnlyTypeImports(packages) {
  const names = packages.map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|');
  const IMPORT = new RegExp(`^import (?!type )(.+?) from "(${names})";$`, 'gm');
  return {
    name: 'esm-only-type-imports',
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type === 'chunk' && /\.d\.c?ts$/.test(chunk.fileName)) {
          chunk.code = chunk.code.replace(IMPORT, 'import type $1 from "$2" with { "resolution-mode": "import" };');
        }
      }
    },
  };
}
