import type { RouteInfo } from '../index.js';

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1) as a plain object. */
export type JsonSchemaObject = { [keyword: string]: unknown };

/** Which part of a request or response a schema describes. */
export type SchemaPart = 'body' | 'query' | 'params' | 'headers' | 'cookies' | 'response';

/** What a converter is told about the schema it is asked to convert. */
export interface JsonSchemaContext {
  /** The route the schema belongs to. */
  readonly route: RouteInfo;
  readonly part: SchemaPart;
  /** The schema library's name from its Standard Schema properties (`zod`, `valibot`, `arktype`), if it says. */
  readonly vendor: string | undefined;
}

/**
 * Turns a validation library's schema into JSON Schema, or answers undefined to leave it to the built-in
 * detection (the Standard JSON Schema interface, which zod 4 and arktype offer). It must answer at once. One
 * that throws or answers what is not a JSON Schema object (a promise included) is logged, and the schema is
 * shown as unconverted.
 *
 * @example
 * import { toJsonSchema } from '@valibot/to-json-schema';
 * const jsonSchema: JsonSchemaConverter = (schema, { vendor }) => (vendor === 'valibot' ? toJsonSchema(schema as never) : undefined);
 */
export type JsonSchemaConverter = (schema: object, context: JsonSchemaContext) => JsonSchemaObject | undefined;

/** The document's `info`: `title` and `version` (of the API, not of the document format) are required. */
export interface OpenApiInfo {
  readonly title: string;
  readonly version: string;
  readonly summary?: string;
  readonly description?: string;
  readonly termsOfService?: string;
  readonly contact?: { readonly name?: string; readonly url?: string; readonly email?: string };
  readonly license?: { readonly name: string; readonly identifier?: string; readonly url?: string };
}

/** Where the API is served. */
export interface OpenApiServer {
  readonly url: string;
  readonly description?: string;
}

/** Options of `createOpenApiDocument` and `openApiRoute`. */
export interface OpenApiOptions {
  readonly info: OpenApiInfo;
  readonly servers?: readonly OpenApiServer[];
  /** Converts schemas the built-in detection cannot (valibot through `@valibot/to-json-schema`, for one). */
  readonly jsonSchema?: JsonSchemaConverter;
  /** More named schemas for `components.schemas`, for `$ref`s in `Describe` responses (`#/components/schemas/Order`). */
  readonly schemas?: Readonly<Record<string, JsonSchemaObject>>;
  /** More members of the shared `Problem` schema: the extensions the app's own problems carry (name → schema). */
  readonly problemExtensions?: Readonly<Record<string, JsonSchemaObject>>;
  /** Codes the app's own problems carry in `code`, beside the framework's. */
  readonly problemCodes?: readonly string[];
  /**
   * Which routes the document shows; default all of them. It must answer at once with true or false: one that
   * throws or answers anything else is logged, and the route is shown.
   */
  readonly include?: (route: RouteInfo) => boolean;
}

/** An OpenAPI 3.1 document, as plain JSON-ready data. */
export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: OpenApiInfo;
  readonly servers?: readonly OpenApiServer[];
  readonly tags?: readonly { readonly name: string }[];
  readonly paths: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly components: {
    readonly schemas: Readonly<Record<string, JsonSchemaObject>>;
    readonly headers?: Readonly<Record<string, unknown>>;
    readonly securitySchemes?: Readonly<Record<string, unknown>>;
  };
}
