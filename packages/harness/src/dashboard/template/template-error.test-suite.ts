// For the template tests: the TemplateError a piece of work throws.
import assert from 'node:assert/strict';
import { TemplateError } from './errors.js';

/** The TemplateError `work` throws; fails the test when it throws something else or nothing. */
export function errorOf(work: () => unknown): TemplateError {
  try {
    work();
  } catch (error) {
    assert.ok(error instanceof TemplateError, `a TemplateError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a TemplateError');
}
