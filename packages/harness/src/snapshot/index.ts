/**
 * Widget images: custom widgets drawn in Chromium as the harness page draws them, compared with golden images,
 * and the `trellis snapshot` run with its gallery. Users reach `WidgetImages` and `compareWidgetImage` through
 * `trellis-harness`; the HTTP route and the command line use the rest.
 */
export {
  WidgetImages,
  checkImageOptions,
  DEFAULT_IMAGE_TIMEOUT_MS,
  MAX_IMAGE_PIXELS,
  MAX_IMAGE_SCALE,
  MAX_IMAGE_SIDE,
} from './widget-images.js';
export type { WidgetImage, WidgetImageOptions, WidgetImagesOptions } from './widget-images.js';
export { compareWidgetImage } from './compare.js';
export type { CompareOptions, ImageComparison } from './compare.js';
export { IMAGE_FAILURES, ImageError } from './errors.js';
export type { ImageFailureCode } from './errors.js';
export { GALLERY_FILE, MANIFEST_FILE, runSnapshot } from './snapshot-run.js';
export type { SnapshotReport, SnapshotRunOptions } from './snapshot-run.js';
export type { GalleryEntry, SnapshotStatus } from './gallery.js';
export type { Theme } from './widget-document.js';
