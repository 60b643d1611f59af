// The Lambda entry point: the app is built once per execution environment, then answers every widget event.
import { widgetHandler } from 'trellis/lambda';
import { createStatusApp } from './app.js';

export const handler = widgetHandler(createStatusApp(), { describe: { title: 'Service status widget' } });
