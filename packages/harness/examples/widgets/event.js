// Prints the event it was called with: params at the top level and the whole widgetContext. Handy while
// writing a widget. Also logs it, so the harness shows the console output of the invocation.
const escapeHtml = (text) => text.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]);

export const handler = async (event, context) => {
  if (event.describe) return 'Prints the event the console sent, as JSON.';
  const json = JSON.stringify(event, null, 2);
  console.log(`event for ${event.widgetContext?.widgetId} (request ${context.awsRequestId})`);
  return `<pre class="event">${escapeHtml(json)}</pre>`;
};
