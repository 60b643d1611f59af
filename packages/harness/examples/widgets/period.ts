// A form with radio buttons and a call action: "Apply" calls this function again with the checked `period`
// (from widgetContext.forms.all) and the action's own params; the result replaces the widget.
import { callAction, html, radioGroup, type WidgetEvent } from 'trellis/widgets';

const ENDPOINT = 'trellis-example-period';
const PERIODS = [
  { value: '60', label: '1 minute' },
  { value: '300', label: '5 minutes' },
  { value: '3600', label: '1 hour' },
];

interface Params {
  apply?: boolean;
}

const DOCUMENTATION =
  'Pick a period with the radio buttons and click **Apply**: the choice reaches the function as `widgetContext.forms.all.period`.';

export const handler = async (event: WidgetEvent<Params>) => {
  if (event.describe) return DOCUMENTATION;
  const posted = event.widgetContext.forms.all.period;
  const checked = typeof posted === 'string' && PERIODS.some((p) => p.value === posted) ? posted : '300';
  const label = PERIODS.find((p) => p.value === checked)!.label;
  const status = event.apply
    ? html`<p class="chosen">Period set to ${label} (${checked} s).</p>`
    : html`<p class="chosen">No period applied yet.</p>`;
  return html`${status}
<form>${radioGroup('period', PERIODS, { checked })}</form>
<button class="btn btn-primary">Apply</button>${callAction({ endpoint: ENDPOINT, params: { apply: true } })}`.toString();
};
