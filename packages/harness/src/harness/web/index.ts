/**
 * The harness's web page: a console-shaped view of the loaded dashboards that talks only to the public HTTP
 * API. Plain ES modules and CSS read from `assets/` beside this module (copied into `dist/` by the build),
 * so nothing is built at run time.
 */
import { readFile } from 'node:fs/promises';
import { reply, route } from 'trellis';
import type { RouteDefinition } from 'trellis';

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

/** The files the page is made of; nothing else under `assets/` is served. */
export const WEB_ASSETS: readonly string[] = [
  'app.js',
  'page.js',
  'widgets.js',
  'api.js',
  'layout.js',
  'frame.js',
  'sanitize.js',
  'forms.js',
  'inspector.js',
  'controls.js',
  'loader.js',
  'dialogs.js',
  'geometry.js',
  'panels.js',
  'placeholder.js',
  'zone.js',
  'image.js',
  'app.css',
  'widget.css',
];

// No script-src here: widget HTML is parsed (inertly) in the page before it is shown, and Chromium reports every
// inline handler it meets in a parse under such a policy as a violation. Scripts in widgets are stopped by the
// frames' sandbox (no allow-scripts) and by stripping; the page never inserts widget HTML into itself.
const CSP = ["object-src 'none'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'", "connect-src 'self'"].join('; ');

const cache = new Map<string, Promise<Buffer>>();

function load(file: string): Promise<Buffer> {
  let body = cache.get(file);
  if (!body) {
    body = readFile(new URL(`./assets/${file}`, import.meta.url));
    body.catch(() => cache.delete(file));
    cache.set(file, body);
  }
  return body;
}

function serve(file: string, extraHeaders: Record<string, string> = {}) {
  const type = TYPES[file.slice(file.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
  return async () =>
    reply(await load(file), {
      headers: { 'content-type': type, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff', ...extraHeaders },
    });
}

/**
 * The routes of the web page: `GET /` (the page) and `GET /web/<file>` for its modules and styles. Mount them
 * beside the HTTP API; the page calls only `/api/...`.
 *
 * @example
 * const app = createApp();
 * app.route(webRoutes());
 * await app.listen({ port: 4600 });
 */
export function webRoutes(): RouteDefinition[] {
  return [
    route('GET', '/', serve('index.html', { 'content-security-policy': CSP })),
    ...WEB_ASSETS.map((file) => route('GET', `/web/${file}`, serve(file))),
  ];
}
