// The gallery `trellis snapshot` writes beside its images: one HTML file that holds every image inline (data:
// URLs), so a CI job can keep it as a single artifact. Changed widgets come first, each with its golden and diff.
import type { RemoteResource } from './remote-image.js';
import type { BlockedRequest } from './renderer.js';

/** How one image fared against its golden. */
export type SnapshotStatus = 'written' | 'unchanged' | 'changed' | 'missing' | 'updated';

/** One image of the gallery. */
export interface GalleryEntry {
  readonly dashboard: string;
  readonly widgetId: string;
  readonly title: string | null;
  readonly theme: 'light' | 'dark';
  readonly width: number;
  readonly height: number;
  readonly scale: number;
  /** The PNG's file name in the output folder. */
  readonly file: string;
  readonly png: Buffer;
  readonly status: SnapshotStatus;
  /** What differs from the golden (`changed`, `missing`). */
  readonly message?: string;
  readonly golden?: Buffer;
  readonly diff?: Buffer;
  readonly blocked: readonly BlockedRequest[];
  readonly remote: readonly RemoteResource[];
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;

const LABEL: Record<SnapshotStatus, string> = {
  written: 'written',
  unchanged: 'unchanged',
  changed: 'changed',
  missing: 'no golden image',
  updated: 'golden updated',
};

function figure(label: string, png: Buffer, entry: GalleryEntry): string {
  // Shown at CSS size: a scale-2 image is drawn as its widget is on a high-density screen.
  return `<figure><img src="${dataUrl(png)}" width="${entry.width}" height="${entry.height}" alt="${escape(`${label} of ${entry.widgetId}`)}"><figcaption>${escape(label)}</figcaption></figure>`;
}

function card(entry: GalleryEntry): string {
  const name = entry.title ? `${entry.title} (${entry.widgetId})` : entry.widgetId;
  const figures = [figure(entry.theme, entry.png, entry)];
  if (entry.golden) figures.push(figure('golden', entry.golden, entry));
  if (entry.diff) figures.push(figure('diff', entry.diff, entry));
  const notes = [
    ...entry.blocked.map((b) => `refused ${b.url}: ${b.reason}`),
    ...entry.remote.map((r) => `loaded ${r.url} (${r.status}, ${r.bytes} bytes, sha256 ${r.sha256})`),
  ];
  return `<section class="card ${entry.status}" id="${escape(entry.file)}">
<h3>${escape(name)} <span class="status">${escape(LABEL[entry.status])}</span></h3>
<p class="meta">${escape(entry.dashboard)} · ${entry.theme} · ${entry.width} × ${entry.height} px at scale ${entry.scale} · <code>${escape(entry.file)}</code>${entry.message ? ` · ${escape(entry.message)}` : ''}</p>
<div class="figures">${figures.join('')}</div>${notes.length ? `<ul class="notes">${notes.map((n) => `<li>${escape(n)}</li>`).join('')}</ul>` : ''}
</section>`;
}

const CSS = `body{font:14px/1.43 "Helvetica Neue",Roboto,Arial,sans-serif;margin:24px;color:#16191f;background:#f2f3f3}
h1{font-size:20px;margin:0 0 8px}h2{font-size:16px;margin:24px 0 8px}h3{font-size:14px;margin:0 0 4px}
.summary a{color:#0073bb}.card{background:#fff;border:1px solid #d5dbdb;margin:0 0 16px;padding:12px}
.card.changed,.card.missing{border-color:#d13212;border-width:2px}.status{font-weight:400;color:#5f6b7a;margin-left:8px}
.changed .status,.missing .status{color:#d13212;font-weight:700}.meta{color:#5f6b7a;margin:0 0 8px}
.figures{display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start}figure{margin:0}figure img{display:block;border:1px solid #d5dbdb;max-width:100%;height:auto}
figcaption{color:#5f6b7a;font-size:12px}.notes{font-size:12px;color:#5f6b7a}`;

/**
 * The gallery page: a summary (the changed images linked first), then every image by dashboard.
 *
 * @example
 * await writeFile('snapshots/index.html', galleryHtml(entries, { comparedWith: 'golden/' }));
 */
export function galleryHtml(entries: readonly GalleryEntry[], about: { comparedWith?: string; browser?: string } = {}): string {
  const failing = entries.filter((e) => e.status === 'changed' || e.status === 'missing');
  const counts = Object.entries(
    entries.reduce<Record<string, number>>((n, e) => ({ ...n, [LABEL[e.status]]: (n[LABEL[e.status]] ?? 0) + 1 }), {}),
  )
    .map(([label, n]) => `${n} ${label}`)
    .join(', ');
  const against = about.comparedWith ? ` against <code>${escape(about.comparedWith)}</code>` : '';
  const summary = `<p class="summary">${entries.length} images${against}: ${escape(counts || 'none')}.${about.browser ? ` Drawn by ${escape(about.browser)}.` : ''}</p>${
    failing.length
      ? `<ul class="summary">${failing.map((e) => `<li><a href="#${escape(e.file)}">${escape(`${e.dashboard} ${e.widgetId} ${e.theme}`)}</a>: ${escape(e.message ?? LABEL[e.status])}</li>`).join('')}</ul>`
      : ''
  }`;
  const dashboards = [...new Set(entries.map((e) => e.dashboard))];
  const sections = dashboards.map((d) => {
    const own = entries.filter((e) => e.dashboard === d);
    const ordered = [...own.filter((e) => failing.includes(e)), ...own.filter((e) => !failing.includes(e))];
    return `<h2>${escape(d)}</h2>\n${ordered.map(card).join('\n')}`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Widget snapshots</title><style>${CSS}</style></head>
<body><h1>Widget snapshots</h1>
${summary}
${sections.join('\n')}
</body></html>
`;
}
