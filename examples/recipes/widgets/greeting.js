// A custom widget in a CommonJS project: greets its `name` param, or the name typed into its form on "Greet".
const { html, callAction, textInput } = require('trellis/widgets');

exports.handler = async (event) => {
  const typed = event.widgetContext.forms.all.visitor;
  const name = typeof typed === 'string' && typed.trim() !== '' ? typed.trim() : event.name ?? 'world';
  return html`<p class="greeting">Hello, ${name}!</p>
<form>${textInput('visitor', { label: 'Name' })}</form>
<button class="btn btn-primary">Greet</button>${callAction({ endpoint: 'greeting', params: {} })}`;
};
