// Jest: every custom widget drawn and compared with its golden images by `trellis snapshot` (any runner can run
// the command; it needs nothing from Jest's module system). On a difference it names the widgets that changed,
// and snapshots/index.html shows each with its golden image and its diff.
const { spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');

const GOLDEN = 'screenshots/jest';

test('every widget looks as it did', () => {
  // The first run writes the golden images; UPDATE_SCREENSHOTS=1 writes them again.
  const update = process.env.UPDATE_SCREENSHOTS === '1' || !existsSync(GOLDEN);
  const run = spawnSync(
    'node_modules/.bin/trellis',
    ['snapshot', '--functions', 'functions.json', '--dashboard', 'dashboard.json', '--compare', GOLDEN, ...(update ? ['--update'] : [])],
    { encoding: 'utf8' },
  );
  if (run.status === 1 && run.stdout === '' && /^trellis snapshot: Widget images (need|are drawn)/.test(run.stderr)) {
    console.warn(`skipped: ${run.stderr.trim()}`);
    return;
  }
  expect(`${run.stdout}${run.stderr}`).not.toMatch(/^(changed|missing): /m);
  expect(run.status).toBe(0);
}, 120_000);
