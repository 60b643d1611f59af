import { createApp, route } from 'trellis';
import { lambdaHandler } from 'trellis/lambda';

const app = createApp();
app.route(route('GET', '/hello', () => ({ hello: 'world' })));

export const handler = lambdaHandler(app);
