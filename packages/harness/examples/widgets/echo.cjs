// Echo: returns the HTML in `params.echo` as it is, so a dashboard author can try out markup. A CommonJS
// handler in the callback style, as older Lambda functions are written.
'use strict';

module.exports.handler = (event, context, callback) => {
  if (event.describe) {
    callback(null, 'Shows the HTML given in the `echo` param, unchanged. Try markup here before putting it in a widget.');
    return;
  }
  callback(null, typeof event.echo === 'string' ? event.echo : '<p>Set the <code>echo</code> param to some HTML.</p>');
};
