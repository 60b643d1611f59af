import type { Plugin } from 'rolldown';
export function builtinsOfBundledPackages(): Plugin;
export function thirdPartyLicences(title: string): Plugin;
export function esmOnlyTypeImports(packages: string[]): Plugin;
