import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collectFormFields, formValues } from './index.js';

test('text inputs and textareas give their value; an input without value gives ""', () => {
  const fields = collectFormFields(
    '<input name="q" value="cpu"><input name="empty"><input type="email" name="mail" value="a@b"><textarea name="note">line one\nline two</textarea>',
  );
  assert.deepEqual(formValues(fields), { q: 'cpu', empty: '', mail: 'a@b', note: 'line one\nline two' });
  assert.deepEqual(
    fields.map((f) => f.kind),
    ['text', 'text', 'text', 'textarea'],
  );
});

test('radio groups give the checked value (the last checked one wins), and list their options', () => {
  const [r, none] = collectFormFields(
    '<input type="radio" name="size" value="s"><input type="radio" name="size" value="m" checked><input type="radio" name="size" value="l" checked>' +
      '<input type="radio" name="unset" value="a">',
  );
  assert.deepEqual(r, { name: 'size', kind: 'radio', multiple: false, value: 'l', options: ['s', 'm', 'l'] });
  assert.equal(none!.value, undefined);
});

test('checkboxes: value or "on" when checked, absent when not, an array when several of one name are checked', () => {
  const fields = collectFormFields(
    '<input type="checkbox" name="live" checked>' +
      '<input type="checkbox" name="off" value="x">' +
      '<input type="checkbox" name="tags" value="a" checked><input type="checkbox" name="tags" value="b"><input type="checkbox" name="tags" value="c" checked>',
  );
  assert.deepEqual(formValues(fields), { live: 'on', tags: ['a', 'c'] });
  const tags = fields.find((f) => f.name === 'tags')!;
  assert.equal(tags.multiple, true);
  assert.deepEqual(tags.options, ['a', 'b', 'c']);
});

test('selects give the selected option, or the first; multiple selects give an array; option text stands in for a missing value', () => {
  const fields = collectFormFields(
    '<select name="a"><option value="1">One</option><option value="2" selected>Two</option></select>' +
      '<select name="b"><option>  First  choice </option><option>Second</option></select>' +
      '<select name="c" multiple><option value="x" selected>X</option><option value="y">Y</option><option value="z" selected>Z</option></select>' +
      '<select name="d" multiple><option value="x">X</option></select>' +
      '<select name="e"><optgroup label="g"><option value="in-group">G</option></optgroup></select>',
  );
  assert.deepEqual(formValues(fields), { a: '2', b: 'First choice', c: ['x', 'z'], d: [], e: 'in-group' });
  assert.deepEqual(fields[0]!.options, ['1', '2']);
  assert.equal(fields[2]!.multiple, true);
});

test('unnamed, disabled and button-like fields are skipped; a disabled fieldset disables its controls but not its legend', () => {
  const fields = collectFormFields(
    '<input value="no name"><input name="" value="empty name"><input name="d" value="x" disabled>' +
      '<input type="submit" name="s" value="Go"><input type="button" name="b"><input type="reset" name="r"><input type="file" name="f"><input type="image" name="i">' +
      '<button name="btn">b</button>' +
      '<fieldset disabled><legend><input name="in-legend" value="ok"></legend><input name="in-set" value="no"></fieldset>' +
      '<input type="hidden" name="h" value="kept">',
  );
  assert.deepEqual(formValues(fields), { 'in-legend': 'ok', h: 'kept' });
});

test('fields are collected from the whole widget, inside and outside forms, and repeated text names give an array', () => {
  const fields = collectFormFields(
    '<form><input name="a" value="1"></form><div><input name="a" value="2"></div><input name="b" value="3">',
  );
  assert.deepEqual(formValues(fields), { a: ['1', '2'], b: '3' });
  assert.equal(fields[0]!.multiple, true);
});

test('a field named __proto__ is an ordinary key', () => {
  const values = formValues(collectFormFields('<input name="__proto__" value="x">'));
  assert.equal(Object.getPrototypeOf(values), Object.prototype);
  assert.deepEqual(Object.keys(values), ['__proto__']);
  assert.equal(JSON.stringify(values), '{"__proto__":"x"}');
});
