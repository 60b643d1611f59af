// A custom widget: greets the `name` in its params, or the name typed into its form when "Greet" is clicked.
import { callAction, html, textInput, type WidgetHandler } from 'trellis/widgets';

export const handler: WidgetHandler<{ name?: string }> = async (event, context) => {
  if (event.describe) return 'Greets `name` (a string), or the name typed into the form when **Greet** is clicked.';
  const typed = event.widgetContext.forms.all.visitor;
  const name = typeof typed === 'string' && typed.trim() !== '' ? typed.trim() : (event.name ?? 'world');
  // The button calls this same function again (the console needs its ARN), with the form's values.
  return html`<p class="greeting">Hello, ${name}!</p>
<form>${textInput('visitor', { label: 'Name' })}</form>
<button class="btn btn-primary">Greet</button>${callAction({ endpoint: context.invokedFunctionArn, params: {} })}`;
};
