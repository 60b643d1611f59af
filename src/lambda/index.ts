/**
 * trellis/lambda: a Trellis app on AWS Lambda.
 */
// CloudWatch custom-widget events (src/lambda/widget).
export * from './widget/index.js';
