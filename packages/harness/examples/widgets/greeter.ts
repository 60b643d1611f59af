// A form: the "visitor" field (labelled Name) reaches the function through widgetContext.forms.all when "Greet" is clicked.
// "About" shows an HTML popup; "Clear" asks for confirmation first.
import { callAction, html, htmlAction, textInput, type WidgetEvent } from 'trellis/widgets';

const ENDPOINT = 'trellis-example-greeter';

interface Params {
  greet?: boolean;
  clear?: boolean;
}

const DOCUMENTATION =
  'Greets the name typed into the form. Buttons: **Greet** (reads the `visitor` field), **Clear** (asks first), **About** (a popup).';

// An async handler: Lambda answers a non-async handler through its callback only.
export const handler = async (event: WidgetEvent<Params>) => {
  if (event.describe) return DOCUMENTATION;
  const typed = event.widgetContext.forms.all.visitor;
  const name = event.clear ? '' : typeof typed === 'string' ? typed.trim() : '';
  const greeting = event.greet && name ? html`<p class="greeting">Hello, ${name}</p>` : html`<p class="greeting">Nobody greeted yet.</p>`;
  return html`${greeting}
<form>${textInput('visitor', { value: name, label: 'Name', placeholder: 'Ada' })}</form>
<button class="btn btn-primary">Greet</button>${callAction({ endpoint: ENDPOINT, params: { greet: true } })}
<button>Clear</button>${callAction({ endpoint: ENDPOINT, params: { clear: true }, confirmation: 'Clear the greeting?' })}
<a>About</a>${htmlAction({ display: 'popup', content: html`<h4>About this widget</h4><p>The name field is sent as <code>widgetContext.forms.all.visitor</code>.</p>` })}`.toString();
};
