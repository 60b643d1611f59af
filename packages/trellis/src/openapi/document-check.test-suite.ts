// Checks an OpenAPI document the way a user's tools would read it: the OpenAPI 3.1 validator, every `$ref`
// pointing at something, and every schema compiling as JSON Schema 2020-12.
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';

/** The value a local JSON pointer (`#/components/schemas/Problem`) names in a document, or undefined. */
export function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let at: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (at === null || typeof at !== 'object' || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** Every `$ref` in a value, with where it was found. */
function refs(value: unknown, where = '#', out: Array<[string, string]> = []): Array<[string, string]> {
  if (Array.isArray(value)) value.forEach((v, i) => refs(v, `${where}/${i}`, out));
  else if (value !== null && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string') out.push([where, v]);
      else refs(v, `${where}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, out);
    }
  }
  return out;
}

/** Every schema of the operations (parameters, bodies, responses), with where it is. */
function operationSchemas(doc: any): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  for (const [path, item] of Object.entries<any>(doc.paths ?? {})) {
    for (const [method, op] of Object.entries<any>(item)) {
      const at = `${method.toUpperCase()} ${path}`;
      for (const p of op.parameters ?? []) out.push([`${at} parameter ${p.name}`, p.schema]);
      for (const [type, media] of Object.entries<any>(op.requestBody?.content ?? {})) out.push([`${at} body ${type}`, media.schema]);
      for (const [status, response] of Object.entries<any>(op.responses ?? {})) {
        for (const [type, media] of Object.entries<any>(response.content ?? {}))
          if (media.schema) out.push([`${at} ${status} ${type}`, media.schema]);
      }
    }
  }
  return out;
}

/** Asserts the document is valid OpenAPI 3.1 with resolvable refs and compilable schemas; returns it. */
export async function checkDocument<T>(doc: T): Promise<T> {
  const validator = new Validator();
  const result = await validator.validate(JSON.parse(JSON.stringify(doc)) as Record<string, unknown>);
  assert.deepEqual(result.errors ?? [], [], 'the OpenAPI validator finds no errors');
  assert.equal(result.valid, true);
  assert.equal(validator.version, '3.1');
  for (const [where, ref] of refs(doc)) assert.notEqual(resolvePointer(doc, ref), undefined, `${where}: $ref ${ref} points at nothing`);
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  const schemas = operationSchemas(doc);
  ajv.addSchema({
    $id: 'urn:trellis:openapi',
    components: (doc as any).components,
    $defs: Object.fromEntries(schemas.map(([, s], i) => [`s${i}`, s])),
  });
  for (const name of Object.keys((doc as any).components?.schemas ?? {})) {
    assert.doesNotThrow(() => ajv.getSchema(`urn:trellis:openapi#/components/schemas/${name}`), `components.schemas.${name} compiles`);
  }
  schemas.forEach(([where], i) => assert.doesNotThrow(() => ajv.getSchema(`urn:trellis:openapi#/$defs/s${i}`), `${where} compiles`));
  return doc;
}
