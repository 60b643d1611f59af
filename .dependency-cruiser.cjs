// The shape of src/, checked by `npm run lint` (dependency-cruiser): no import cycles (type-only imports
// count), imports that point down the stack, and rooms that reach each other only through their index.ts.
//
// The core is a stack: services → pipeline → annotations → filters → auth → app, published by src/index.ts.
// Capabilities plug in from above through that surface; the harness is where the framework and the dashboard
// interpreter meet.

/** Each room (a folder of src/) and the rooms it may import. */
const rooms = {
  services: [],
  pipeline: ['services'],
  annotations: ['services', 'pipeline'],
  'filters/[^/]+': ['services', 'pipeline', 'annotations'],
  filters: ['filters/[^/]+'],
  auth: ['services', 'pipeline', 'filters'],
  app: ['services', 'pipeline', 'annotations', 'filters'],
  core: ['services', 'pipeline', 'annotations', 'filters', 'auth', 'app'],
  ratelimit: ['core', 'services'],
  'ratelimit/redis': ['ratelimit', 'core'],
  widgets: [],
  lint: [],
  'dashboard/functions': ['widgets'],
  dashboard: ['dashboard/functions', 'lint', 'widgets'],
  lambda: ['core', 'widgets', 'ratelimit'],
  harness: ['core', 'dashboard', 'dashboard/functions', 'lint', 'widgets', 'ratelimit'],
  cli: ['harness', 'dashboard', 'dashboard/functions', 'lint'],
};

/** The files of a room: `core` is src/index.ts, the core's public surface; other rooms are folders. */
const filesOf = (room) => (room === 'core' ? '^src/index\\.ts$' : `^src/${room}/`);
/** A room's public surface. */
const surfaceOf = (room) => (room === 'core' ? '^src/index\\.ts$' : `^src/${room}/index\\.ts$`);
/** A folder room's own files, not those of the rooms nested in it. */
const ownFiles = (room) => {
  if (room === 'core') return filesOf(room);
  const nested = Object.keys(rooms).filter((r) => r !== room && r.startsWith(`${room}/`));
  return nested.length ? `^src/${room}/(?!(${nested.map((r) => r.slice(room.length + 1)).join('|')})/)` : `^src/${room}/`;
};

const forbidden = [
  {
    name: 'no-cycle',
    comment: 'Imports form a stack: no module may reach itself again, not even through type-only imports.',
    severity: 'error',
    from: { path: '^src/' },
    to: { circular: true },
  },
  {
    name: 'no-test-code-in-src',
    comment: 'The package never imports test code or fixtures.',
    severity: 'error',
    from: { path: '^src/' },
    to: { path: '^test/' },
  },
  {
    name: 'room-unknown',
    comment: 'Every folder of src/ is a room listed in .dependency-cruiser.cjs, with the rooms it may import.',
    severity: 'error',
    from: { path: '^src/[^/]+/', pathNot: `(${Object.keys(rooms).filter((r) => r !== 'core').map(filesOf).join('|')})` },
    to: {},
  },
];

for (const [room, allowed] of Object.entries(rooms)) {
  const mayReach = [room, ...allowed].map(ownFiles);
  forbidden.push({
    name: `stack:${room}`,
    comment: `${room} imports only ${allowed.length ? allowed.join(', ') : 'no other room'} (imports point down the stack).`,
    severity: 'error',
    from: { path: ownFiles(room), pathNot: '\\.test\\.ts$|\\.test-suite\\.ts$' },
    to: { path: '^src/', pathNot: `(${mayReach.join('|')})` },
  });
  if (room !== 'core') {
    forbidden.push({
      name: `surface:${room}`,
      comment: `Other rooms import ${room} only through its index.ts.`,
      severity: 'error',
      from: { path: '^src/', pathNot: ownFiles(room) },
      to: { path: ownFiles(room), pathNot: surfaceOf(room) },
    });
  }
}

module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.cjs', '.mjs'] },
  },
};
