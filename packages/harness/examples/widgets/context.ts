// Shows what the console tells a widget: time range, period, theme, timezone, locale and size.
import { html, type WidgetEvent } from 'trellis/widgets';

function iso(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

const DOCUMENTATION = 'Shows the `widgetContext` the console sends: time range, period, theme, timezone, locale and pixel size.';

// An async handler: Lambda answers a non-async handler through its callback only.
export const handler = async (event: WidgetEvent) => {
  if (event.describe) return DOCUMENTATION;
  const c = event.widgetContext;
  const range = c.timeRange;
  const zoom = range.zoom ? html`<tr><th>Zoom</th><td>${iso(range.zoom.start)} – ${iso(range.zoom.end)}</td></tr>` : '';
  const relative =
    range.mode === 'relative' && range.relativeStart !== undefined ? ` (last ${Math.round(range.relativeStart / 60_000)} min)` : '';
  const colors = c.theme === 'dark' ? 'background:#1b1f23;color:#e6e6e6' : 'background:#ffffff;color:#16191f';
  return html`<div class="context" style=${colors}>
<table>
<tr><th>Time range</th><td class="time-range">${range.mode}${relative}: ${iso(range.start)} – ${iso(range.end)}</td></tr>${zoom}
<tr><th>Period</th><td>${c.period} s${c.isAutoPeriod ? ' (auto)' : ''}</td></tr>
<tr><th>Theme</th><td class="theme">${c.theme}</td></tr>
<tr><th>Timezone</th><td>${c.timezone.label} (${c.timezone.offsetISO})</td></tr>
<tr><th>Locale</th><td>${c.locale}</td></tr>
<tr><th>Size</th><td>${c.width} × ${c.height} px</td></tr>
<tr><th>Dashboard</th><td>${c.dashboardName} / ${c.widgetId}</td></tr>
</table></div>`.toString();
};
