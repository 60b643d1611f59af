/** The stable codes of what can stop a widget image, each with the HTTP status the harness answers it with. */
export const IMAGE_FAILURES = {
  /** No Chromium or Chrome was found, or playwright-core is not installed, or the browser would not start. */
  TRELLIS_IMAGE_BROWSER_UNAVAILABLE: 503,
  /** The width, height or scale asked for (or the widget's own size) is past the bounds. */
  TRELLIS_IMAGE_TOO_LARGE: 422,
  /** Drawing took longer than the time bound. */
  TRELLIS_IMAGE_TIMEOUT: 422,
  /** Too many images are waiting for the browser. */
  TRELLIS_IMAGE_BUSY: 429,
} as const;

export type ImageFailureCode = keyof typeof IMAGE_FAILURES;

/**
 * Why a widget image could not be made: a stable `code` (its HTTP status in `status`), a message that says what
 * would make it work, and the option or query parameter at fault (`width`, `height`, `scale`) when there is one.
 *
 * @example
 * try { await images.widget(dash, 0); } catch (e) { if (e instanceof ImageError && e.code === 'TRELLIS_IMAGE_BROWSER_UNAVAILABLE') t.skip(e.message); }
 */
export class ImageError extends Error {
  override readonly name = 'ImageError';
  readonly status: number;

  constructor(
    readonly code: ImageFailureCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.status = IMAGE_FAILURES[code];
  }
}
