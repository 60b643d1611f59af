// Type tests of typed handler input, checked by the type checker (npm run typecheck) and by
// test/e2e/type-tests.test.ts, which also shows that reading a field a schema does not have fails to compile.
import { expectTypeOf } from 'expect-type';
import * as v from 'valibot';
import { z } from 'zod';
import { Post, Validate, route } from '../../packages/trellis/src/index.js';
import type { ExecutionContext, ValidatedContext } from '../../packages/trellis/src/index.js';

const order = {
  body: z.object({ sku: z.string(), quantity: z.number().int() }),
  query: z.object({ dryRun: z.enum(['yes', 'no']).optional() }),
};

// The functional form: ctx is inferred from the path and the Validate annotation.
route('POST', '/orders/:id/lines/:line', [Validate(order)], (ctx) => {
  expectTypeOf(ctx.body).toEqualTypeOf<{ sku: string; quantity: number }>();
  expectTypeOf(ctx.validatedQuery).toEqualTypeOf<{ dryRun?: 'yes' | 'no' | undefined }>();
  expectTypeOf(ctx.params.id).toEqualTypeOf<string>();
  expectTypeOf(ctx.params.line).toEqualTypeOf<string>();
  // @ts-expect-error the body schema has no price
  void ctx.body.price;
  expectTypeOf(ctx).toMatchTypeOf<ExecutionContext>();
});

// Coercing params and headers schemas, from another Standard Schema library.
route(
  'GET',
  '/items/:id',
  [Validate({ params: v.object({ id: v.pipe(v.string(), v.transform(Number)) }), headers: v.object({ 'x-tenant': v.string() }) })],
  (ctx) => {
    expectTypeOf(ctx.validatedParams).toEqualTypeOf<{ id: number }>();
    expectTypeOf(ctx.validatedHeaders).toEqualTypeOf<{ 'x-tenant': string }>();
    expectTypeOf(ctx.body).toBeUnknown();
  },
);

// Without Validate, the body stays unknown; a handler typed as ExecutionContext is still accepted.
route('GET', '/plain', [], (ctx) => expectTypeOf(ctx.body).toBeUnknown());
const untyped = (ctx: ExecutionContext): string => String(ctx.body);
route('POST', '/untyped', [Validate(order)], untyped);

// The decorator form: the method declares its context; the decorator holds it to the schemas.
export class Orders {
  @Validate(order)
  @Post('/orders')
  create(ctx: ValidatedContext<typeof order>): string {
    expectTypeOf(ctx.body.quantity).toEqualTypeOf<number>();
    return ctx.body.sku;
  }

  // @ts-expect-error the method claims a body field (price) the schemas do not give
  @Validate(order)
  @Post('/orders/priced')
  priced(ctx: ValidatedContext<{ body: z.ZodObject<{ sku: z.ZodString; price: z.ZodNumber }> }>): number {
    return ctx.body.price;
  }
}
