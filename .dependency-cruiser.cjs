// The shape of the packages' sources, checked by `npm run lint` (dependency-cruiser): no import cycles
// (type-only imports count), imports that point down the stack, and rooms that reach each other only through
// their index.ts, the surface a room shows its sibling rooms. What users get is apart: each package's
// src/public/ holds one file per subpath of its package.json "exports", which picks names from the rooms'
// index.ts files; no file of the package imports those, and the harness reaches the framework only through them
// (by the framework's package name).
//
// packages/trellis (the framework) holds the core and what plugs into it; packages/harness (the widget test
// harness) holds the dashboard interpreter, the linter, widget images, the HTTP API and the command line, and imports the
// framework only by its package name. Below everything, errors holds the stable codes of errors in how the
// framework is used. The core is a stack: services → pipeline → annotations → filters → auth →
// app, gathered by packages/trellis/src/index.ts. Capabilities plug in from above through that surface, and
// reach the pipeline's own surface for what the framework keeps to itself (the guard through which user code is
// called); the harness is where the framework and the dashboard interpreter meet.

/** Each room (a folder of src/) and the rooms it may import. */
const rooms = {
  errors: [],
  services: ['errors'],
  pipeline: ['errors', 'services'],
  annotations: ['errors', 'services', 'pipeline'],
  'filters/[^/]+': ['errors', 'services', 'pipeline', 'annotations'],
  filters: ['filters/[^/]+'],
  auth: ['errors', 'services', 'pipeline', 'filters'],
  app: ['errors', 'services', 'pipeline', 'annotations', 'filters'],
  core: ['errors', 'services', 'pipeline', 'annotations', 'filters', 'auth', 'app'],
  ratelimit: ['errors', 'core', 'services', 'pipeline'],
  'ratelimit/redis': ['errors', 'ratelimit', 'core'],
  'ratelimit/dynamodb': ['errors', 'ratelimit', 'core'],
  widgets: ['errors'],
  lint: [],
  'dashboard/functions': ['widgets'],
  'dashboard/template': ['dashboard/functions'],
  dashboard: ['dashboard/functions', 'dashboard/template', 'lint', 'widgets'],
  lambda: ['errors', 'core', 'widgets', 'ratelimit', 'pipeline'],
  openapi: ['errors', 'core', 'app', 'ratelimit', 'pipeline'],
  snapshot: ['dashboard'],
  harness: ['core', 'dashboard', 'dashboard/functions', 'lint', 'widgets', 'ratelimit', 'openapi', 'snapshot'],
  cli: ['harness', 'dashboard', 'dashboard/functions', 'lint', 'core', 'openapi', 'snapshot'],
};

/** The rooms of the harness package; every other room is the framework's. */
const HARNESS = new Set(['lint', 'dashboard/functions', 'dashboard/template', 'dashboard', 'snapshot', 'harness', 'cli']);
/** The source folder of the package that holds a room. */
const srcOf = (room) => `packages/${HARNESS.has(room) ? 'harness' : 'trellis'}/src`;
const CORE = '^packages/trellis/src/index\\.ts$';
/** The files of a room: `core` is the framework's src/index.ts, the core's surface for its siblings; other rooms are folders. */
const filesOf = (room) => (room === 'core' ? CORE : `^${srcOf(room)}/${room}/`);
/** A room's surface for sibling rooms. */
const surfaceOf = (room) => (room === 'core' ? CORE : `^${srcOf(room)}/${room}/index\\.ts$`);
/** The entry points users get: a package's src/public/, one file per subpath it exports. */
const PUBLIC = '^packages/[^/]+/src/public/';
/**
 * What a harness room imports of a framework room: the framework's entry point for it (`trellis` for the core,
 * `trellis/widgets` for widgets, …), by package name, which resolves to its file in src/public/.
 */
const entryOf = (room) => `^packages/trellis/src/public/${room === 'core' ? 'index' : room.replace(/\//g, '-')}\\.ts$`;
/** A folder room's own files, not those of the rooms nested in it. */
const ownFiles = (room) => {
  if (room === 'core') return filesOf(room);
  const nested = Object.keys(rooms).filter((r) => r !== room && r.startsWith(`${room}/`));
  return nested.length
    ? `^${srcOf(room)}/${room}/(?!(${nested.map((r) => r.slice(room.length + 1)).join('|')})/)`
    : `^${srcOf(room)}/${room}/`;
};

const forbidden = [
  {
    name: 'no-cycle',
    comment: 'Imports form a stack: no module may reach itself again, not even through type-only imports.',
    severity: 'error',
    from: { path: '^packages/[^/]+/src/' },
    to: { circular: true },
  },
  {
    name: 'no-test-code-in-src',
    comment: 'The package never imports test code or fixtures.',
    severity: 'error',
    from: { path: '^packages/[^/]+/src/' },
    to: { path: '^test/' },
  },
  {
    name: 'not-to-unresolvable',
    comment: 'Every import resolves: a package the code names is installed, a workspace package has the subpath.',
    severity: 'error',
    from: { path: '^packages/[^/]+/src/' },
    to: { couldNotResolve: true },
  },
  {
    name: 'room-unknown',
    comment: 'Every folder of a package\'s src/ is a room listed in .dependency-cruiser.cjs, with the rooms it may import.',
    severity: 'error',
    from: {
      path: '^packages/[^/]+/src/[^/]+/',
      pathNot: `(${[...Object.keys(rooms).filter((r) => r !== 'core').map(filesOf), PUBLIC].join('|')})`,
    },
    to: {},
  },
  {
    name: 'public-from-surfaces',
    comment: "A package's entry points (src/public/) pick what users get from the rooms' index.ts files, and nothing else.",
    severity: 'error',
    from: { path: PUBLIC },
    to: { path: '^packages/[^/]+/src/', pathNot: `(${Object.keys(rooms).map(surfaceOf).join('|')})` },
  },
  {
    name: 'public-not-imported',
    comment: "No file of a package imports its own entry points: rooms use each other's index.ts.",
    severity: 'error',
    from: { path: '^packages/([^/]+)/src/' },
    to: { path: '^packages/$1/src/public/' },
  },
];

for (const [room, allowed] of Object.entries(rooms)) {
  const mayReach = [room, ...allowed].map((r) => (HARNESS.has(room) && !HARNESS.has(r) ? entryOf(r) : ownFiles(r)));
  forbidden.push({
    name: `stack:${room}`,
    comment: `${room} imports only ${allowed.length ? allowed.join(', ') : 'no other room'} (imports point down the stack).`,
    severity: 'error',
    from: { path: ownFiles(room), pathNot: '\\.test\\.ts$|\\.test-suite\\.ts$' },
    to: { path: '^packages/[^/]+/src/', pathNot: `(${mayReach.join('|')})` },
  });
  if (room !== 'core') {
    forbidden.push({
      name: `surface:${room}`,
      comment: `Other rooms import ${room} only through its index.ts.`,
      severity: 'error',
      from: { path: '^packages/[^/]+/src/', pathNot: ownFiles(room) },
      to: { path: ownFiles(room), pathNot: surfaceOf(room) },
    });
  }
}

module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // The workspace packages resolve to their sources, as in the type check and the tests.
    enhancedResolveOptions: {
      extensions: ['.ts', '.js', '.cjs', '.mjs'],
      exportsFields: ['exports'],
      conditionNames: ['trellis-source', 'import', 'require', 'node', 'default'],
    },
  },
};
