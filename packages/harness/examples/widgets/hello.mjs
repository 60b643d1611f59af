// Hello world with params: a plain ESM Lambda handler, no imports. The dashboard sets `params.name`;
// params arrive at the top level of the event.
const escapeHtml = (text) =>
  String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

export const handler = async (event) => {
  if (event.describe) return 'Says hello. Params: `name` (default "world").';
  const name = typeof event.name === 'string' && event.name.trim() !== '' ? event.name.trim() : 'world';
  return `<h1 class="hello">Hello, ${escapeHtml(name)}!</h1>`;
};
