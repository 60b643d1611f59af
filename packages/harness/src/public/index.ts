/**
 * `trellis-harness`: the dashboard harness over HTTP — started in a test or made as a Trellis app beside others —
 * its typed client, and widget images. Sibling rooms import `../harness/index.ts` instead; this file is what users
 * get, and api/trellis-harness.api.md records it.
 */
export { createHarnessApp, startHarness } from '../harness/index.js';
export type { HarnessApp, RunningHarness } from '../harness/index.js';
export { HarnessApiError, HarnessClient } from '../harness/index.js';
export { WidgetImages, compareWidgetImage } from '../harness/index.js';
export type { ImageComparison, WidgetImage } from '../harness/index.js';
