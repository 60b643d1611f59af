import { createApp, route } from '../../src/index.js';
import { lambdaHandler } from '../../src/lambda/index.js';

const app = createApp();
app.route(route('GET', '/hello', () => ({ hello: 'world' })));

export const handler = lambdaHandler(app);
