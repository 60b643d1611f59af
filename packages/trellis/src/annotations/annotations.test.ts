import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { AllowAnonymous, Authorize, Cache, Controller, createApp, Get, group, Post, route, Validate } from '../index.js';
import type { RouteInfo } from '../index.js';

const shape = (r: RouteInfo) => ({
  id: r.id,
  method: r.method,
  path: r.path,
  annotations: r.annotations.map((a) => ({ kind: a.kind.name, value: a.value })),
});
const body = z.object({ sku: z.string() });

describe('handlers and annotations', () => {
  it('decorators and the functional form produce identical handler descriptors', () => {
    @Authorize('orders')
    @Controller('/orders')
    class Orders {
      @Cache({ seconds: 30, varyBy: ['principal'] }) @Authorize('orders:read') @Get('/:id') show() {
        return {};
      }
      @Validate({ body }) @Post('/') create() {
        return {};
      }
      @AllowAnonymous() @Get('/public/list') list() {
        return [];
      }
    }
    const classApp = createApp().controller(Orders);
    const fnApp = createApp().route(
      group({ prefix: '/orders', annotations: [Authorize('orders')] }, [
        route('GET', '/:id', [Authorize('orders:read'), Cache({ seconds: 30, varyBy: ['principal'] })], () => ({})),
        route('POST', '/', [Validate({ body })], () => ({})),
        route('GET', '/public/list', [AllowAnonymous()], () => []),
      ]),
    );
    const byId = (rs: readonly RouteInfo[]) => [...rs].map(shape).sort((a, b) => a.id.localeCompare(b.id));
    assert.deepEqual(byId(classApp.routes), byId(fnApp.routes));
    assert.deepEqual(
      byId(classApp.routes).map((r) => r.id),
      ['GET /orders/:id', 'GET /orders/public/list', 'POST /orders'],
    );
  });

  it('the order decorators are written in never changes the descriptor', () => {
    class A {
      @Authorize('b') @Authorize('a') @Cache({ seconds: 5 }) @Get('/x') x() {
        return 1;
      }
    }
    class B {
      @Cache({ seconds: 5 }) @Authorize('a') @Authorize('b') @Get('/x') x() {
        return 1;
      }
    }
    assert.deepEqual(createApp().controller(A).routes.map(shape), createApp().controller(B).routes.map(shape));
  });

  it('class-level annotations apply to every method; repeated grants add up', async () => {
    @Authorize('admin')
    class Admin {
      @Authorize('stats') @Get('/stats') stats() {
        return 'ok';
      }
      @Get('/other') other() {
        return 'ok';
      }
    }
    const [other, stats] = [...createApp().controller(Admin).routes].sort((a, b) => a.path.localeCompare(b.path));
    assert.deepEqual(
      stats!.annotations.map((a) => a.value),
      [['admin', 'stats']],
    );
    assert.deepEqual(
      other!.annotations.map((a) => a.value),
      [['admin']],
    );
  });

  it('one kind applied twice on one level with different settings stops the build, naming the handler', () => {
    class Twice {
      @Cache({ seconds: 5 }) @Cache({ seconds: 10 }) @Get('/t') t() {
        return 1;
      }
    }
    assert.throws(() => createApp().controller(Twice).build(), /Twice\.t \(GET \/t\): @Cache is applied 2 times with different settings/);
    @Cache({ seconds: 10 })
    class MethodWins {
      @Cache({ seconds: 5 }) @Get('/m') m() {
        return 1;
      }
    }
    assert.deepEqual(
      createApp()
        .controller(MethodWins)
        .routes[0]!.annotations.map((a) => a.value),
      [{ seconds: 5, varyBy: [] }],
    );
  });

  it('bad declarations are refused with a clear error', () => {
    assert.throws(() => route('FETCH', '/x', () => 1), /Unknown HTTP method "FETCH"/);
    assert.throws(() => route('GET', 'x', () => 1), /must be a string starting with "\/"/);
    assert.throws(() => route('GET', '/x', [{} as never], () => 1), /item 0 is not an annotation/);
    assert.throws(() => Cache({ seconds: 0 }), /seconds/);
    assert.throws(() => Authorize(''), /non-empty/);
    assert.throws(() => Validate({ body: {} as never }), /Standard Schema/);
    class Empty {}
    assert.throws(() => createApp().controller(Empty), /declares no routes/);
    const app = createApp().route(
      route('GET', '/d', () => 1),
      route('GET', '/d', () => 2),
    );
    assert.throws(() => app.build(), /Two handlers are declared for GET \/d/);
  });

  it('subclass metadata does not leak into the parent class', () => {
    class Base {
      @Get('/base') base() {
        return 'b';
      }
    }
    class Child extends Base {
      @Get('/child') child() {
        return 'c';
      }
    }
    assert.deepEqual(
      createApp()
        .controller(Base)
        .routes.map((r) => r.id),
      ['GET /base'],
    );
    assert.deepEqual(
      createApp()
        .controller(Child)
        .routes.map((r) => r.id)
        .sort(),
      ['GET /base', 'GET /child'],
    );
  });
});
