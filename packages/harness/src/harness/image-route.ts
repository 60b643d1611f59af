import { DashboardDriver, type Interpreter } from '../dashboard/index.js';
import { ImageError, MAX_IMAGE_SCALE, MAX_IMAGE_SIDE, type WidgetImageOptions, type WidgetImages } from '../snapshot/index.js';
import { Describe, HttpError, Validate, group, reply, route, type ExecutionContext, type RouteDefinition } from 'trellis';
import { guardResponses } from './api-routes.js';
import { imageQuery } from './schemas.js';

/** The query parameter `name`, given at most once, as a whole number of 1 to 6 digits (bounds come later). */
function whole(ctx: ExecutionContext, name: 'width' | 'height' | 'scale'): number | undefined {
  const values = ctx.request.query.getAll(name);
  if (values.length === 0) return undefined;
  if (values.length > 1 || !/^\d{1,6}$/.test(values[0]!)) {
    const got = values.length > 1 ? `${values.length} values` : JSON.stringify(values[0]);
    throw new HttpError(400, `The query parameter "${name}" should be given once, a whole number; got ${got}.`, { field: name });
  }
  return Number(values[0]);
}

function imageOptions(ctx: ExecutionContext): WidgetImageOptions {
  const themes = ctx.request.query.getAll('theme');
  if (themes.length > 1 || (themes.length === 1 && themes[0] !== 'light' && themes[0] !== 'dark')) {
    const got = themes.length > 1 ? `${themes.length} values` : JSON.stringify(themes[0]);
    throw new HttpError(400, `The query parameter "theme" should be given once, "light" or "dark"; got ${got}.`, { field: 'theme' });
  }
  const options: WidgetImageOptions = {};
  if (themes.length === 1) options.theme = themes[0] as 'light' | 'dark';
  for (const name of ['width', 'height', 'scale'] as const) {
    const value = whole(ctx, name);
    if (value !== undefined) options[name] = value;
  }
  return options;
}

function toHttpError(error: ImageError): HttpError {
  const extensions = { code: error.code, ...(error.field ? { field: error.field } : {}) };
  return new HttpError(error.status, error.message, extensions, error.code === 'TRELLIS_IMAGE_BUSY' ? { 'retry-after': '1' } : {});
}

/**
 * `GET /api/dashboards/{id}/widgets/{wid}/image`: the custom widget as a PNG, drawn by `images` as the page
 * draws it. Needs no browser to be mounted: without one the answer is a 503 saying what to install.
 *
 * @example
 * app.route(imageRoutes(harness, new WidgetImages()));
 */
export function imageRoutes(harness: Interpreter, images: WidgetImages): RouteDefinition[] {
  return group({ annotations: [guardResponses] }, [
    route(
      'GET',
      '/api/dashboards/:id/widgets/:wid/image',
      [
        Validate({ query: imageQuery }),
        Describe({
          operationId: 'widgetImage',
          summary: 'The widget as a PNG',
          description: `A custom widget drawn in Chromium as the harness page draws it: its current content (the first request runs its function, as a read does), the console's default styles, its size at the dashboard's width, the dashboard's theme. The PNG is width × scale by height × scale pixels. \`theme\`, \`width\` and \`height\` change the frame only: to have the function told another theme or size, set the state first. No script runs, and nothing but \`data:\` URLs loads. At most ${MAX_IMAGE_SIDE} px a side and scale ${MAX_IMAGE_SCALE}.`,
          params: {
            id: 'What creation returned.',
            wid: 'The zero-based position of the widget in `widgets`, or `widget-<n>`.',
          },
          responses: {
            200: {
              description: 'The PNG',
              contentType: 'image/png',
              headers: { 'Content-Disposition': 'inline, with a file name: `<dashboard>-<widget-id>-<theme>.png`' },
            },
            400: 'A query parameter that is not a whole number (or `light`/`dark` for `theme`), or is given twice (`field`)',
            404: 'Unknown dashboard or widget (`target`)',
            422: 'A widget other than a custom one (`field`: `type`); a size or scale past the bounds (`TRELLIS_IMAGE_TOO_LARGE`, `field`); drawing that took longer than the time bound (`TRELLIS_IMAGE_TIMEOUT`)',
            429: {
              description: 'Too many images are waiting for the browser (`TRELLIS_IMAGE_BUSY`)',
              headers: { 'Retry-After': 'Seconds to wait.' },
            },
            503: 'No browser to draw with (`TRELLIS_IMAGE_BROWSER_UNAVAILABLE`): `detail` says what to install — playwright-core, and Chromium or Chrome',
          },
        }),
      ],
      async (ctx) => {
        const options = imageOptions(ctx);
        const dashboard = harness.store.get(ctx.params.id);
        let image;
        try {
          image = await images.widget(new DashboardDriver(dashboard), ctx.params.wid, options);
        } catch (error) {
          if (error instanceof ImageError) throw toHttpError(error);
          throw error;
        }
        const file = `${dashboard.name.replace(/[^A-Za-z0-9._-]+/g, '_')}-${image.widgetId}-${image.theme}.png`;
        return reply(image.png, {
          headers: { 'content-type': 'image/png', 'cache-control': 'no-store', 'content-disposition': `inline; filename="${file}"` },
        });
      },
    ),
  ]);
}
