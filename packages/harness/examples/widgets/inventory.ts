// A paged inventory table: "Next page" / "Previous page" replace the widget's content, an instance id opens
// its details in a popup. Deterministic: the inventory is computed from the index.
import { callAction, html, type WidgetEvent } from 'trellis/widgets';

const ENDPOINT = 'trellis-example-inventory';
const PAGE_SIZE = 5;
const REGIONS = ['eu-west-1', 'us-east-1', 'ap-southeast-2'];
const STATES = ['running', 'running', 'stopped', 'running', 'pending'];

interface Item {
  id: string;
  region: string;
  state: string;
  cpu: number;
}

const ITEMS: Item[] = Array.from({ length: 23 }, (_, i) => ({
  id: `i-${(0x0a1b2c3d + i * 7919).toString(16)}`,
  region: REGIONS[i % REGIONS.length]!,
  state: STATES[i % STATES.length]!,
  cpu: (i * 37) % 100,
}));

interface Params {
  page?: number;
  detail?: string;
}

function details(id: string): string {
  const item = ITEMS.find((i) => i.id === id);
  if (!item) return html`<p>No instance ${id}.</p>`.toString();
  return html`<h4>${item.id}</h4>
<table><tr><th>Region</th><td>${item.region}</td></tr><tr><th>State</th><td>${item.state}</td></tr><tr><th>CPU</th><td>${item.cpu} %</td></tr></table>`.toString();
}

function page(n: number): string {
  const pages = Math.ceil(ITEMS.length / PAGE_SIZE);
  const current = Math.min(Math.max(1, Math.trunc(n) || 1), pages);
  const rows = ITEMS.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE).map(
    (item) =>
      html`<tr><td><a>${item.id}</a>${callAction({
        endpoint: ENDPOINT,
        display: 'popup',
        params: { detail: item.id },
      })}</td><td>${item.region}</td><td>${item.state}</td></tr>`,
  );
  const previous =
    current > 1 ? html`<button>Previous page</button>${callAction({ endpoint: ENDPOINT, params: { page: current - 1 } })}` : '';
  const next = current < pages ? html`<button>Next page</button>${callAction({ endpoint: ENDPOINT, params: { page: current + 1 } })}` : '';
  return html`<table class="cwdb-no-default-styles"><tr><th>Instance (click for details)</th><th>Region</th><th>State</th></tr>${rows}</table>
<p>Page ${current} of ${pages}</p>${previous}${next}`.toString();
}

const DOCUMENTATION =
  'A paged instance inventory. **Next page** / **Previous page** replace the widget; clicking an instance id opens its details in a popup. Params: `page` (1-based).';

// An async handler: Lambda answers a non-async handler through its callback only.
export const handler = async (event: WidgetEvent<Params>) => {
  if (event.describe) return DOCUMENTATION;
  return typeof event.detail === 'string' ? details(event.detail) : page(event.page ?? 1);
};
