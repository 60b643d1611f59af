import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createApp, createToken, Lifetime, RegistrationType, route, ServiceCollection, ServiceNotFoundError } from '../index.js';
import { ServiceCycleError, ServiceLifetimeError, ServiceProvider } from './index.js';

interface Greeter {
  greet(): string;
}
const Greeter = createToken<Greeter>('Greeter');
const make = (word: string): Greeter => ({ greet: () => word });

function provider(configure: (s: ServiceCollection) => void): ServiceProvider {
  const services = new ServiceCollection();
  configure(services);
  return new ServiceProvider(services.seal());
}

describe('services', () => {
  it('Add appends: get resolves the last registration, getAll all of them in order', () => {
    const p = provider((s) => s.add(Greeter, () => make('a')).add(Greeter, () => make('b')));
    assert.equal(p.get(Greeter).greet(), 'b');
    assert.deepEqual(
      p.getAll(Greeter).map((g) => g.greet()),
      ['a', 'b'],
    );
  });

  it('Try adds only when nothing is registered for the token yet', () => {
    const p = provider((s) => s.add(Greeter, () => make('a')).add(Greeter, () => make('b'), { type: RegistrationType.Try }));
    assert.deepEqual(
      p.getAll(Greeter).map((g) => g.greet()),
      ['a'],
    );
    const q = provider((s) => s.tryAdd(Greeter, () => make('t')));
    assert.equal(q.get(Greeter).greet(), 't');
  });

  it('Replace removes what is registered, then adds', () => {
    const p = provider((s) =>
      s
        .add(Greeter, () => make('a'))
        .add(Greeter, () => make('b'))
        .replace(Greeter, () => make('r')),
    );
    assert.deepEqual(
      p.getAll(Greeter).map((g) => g.greet()),
      ['r'],
    );
  });

  it('tryGet gives undefined and get a clear error when nothing is registered', () => {
    const p = provider(() => {});
    assert.equal(p.tryGet(Greeter), undefined);
    assert.deepEqual(p.getAll(Greeter), []);
    assert.throws(
      () => p.get(Greeter),
      (e: Error) => e instanceof ServiceNotFoundError && /Greeter/.test(e.message),
    );
  });

  it('framework defaults lose to an application registration made before or after them', () => {
    const before = new ServiceCollection();
    before.add(Greeter, () => make('app'));
    before.addDefault(Greeter, () => make('default'));
    assert.equal(new ServiceProvider(before.seal()).get(Greeter).greet(), 'app');

    const after = new ServiceCollection();
    after.addDefault(Greeter, () => make('default'));
    after.add(Greeter, () => make('app'));
    const p = new ServiceProvider(after.seal());
    assert.deepEqual(
      p.getAll(Greeter).map((g) => g.greet()),
      ['app'],
    );

    const none = new ServiceCollection();
    none.addDefault(Greeter, () => make('default'));
    assert.equal(new ServiceProvider(none.seal()).get(Greeter).greet(), 'default');
  });

  it('remove() takes a token away for good: its framework default is not applied', () => {
    const s = new ServiceCollection();
    s.add(Greeter, () => make('a'));
    s.addDefault(Greeter, () => make('default'));
    s.remove(Greeter);
    assert.equal(new ServiceProvider(s.seal()).tryGet(Greeter), undefined);
  });

  it('lifetimes: singleton once, scoped once per scope, transient every time', () => {
    let n = 0;
    const Counter = createToken<{ n: number }>('Counter');
    for (const [lifetime, expectSame, expectAcrossScopes] of [
      [Lifetime.Singleton, true, true],
      [Lifetime.Scoped, true, false],
      [Lifetime.Transient, false, false],
    ] as const) {
      const p = provider((s) => s.add(Counter, () => ({ n: n++ }), { lifetime }));
      const a = p.createScope();
      const b = p.createScope();
      assert.equal(a.get(Counter) === a.get(Counter), expectSame, lifetime);
      assert.equal(a.get(Counter) === b.get(Counter), expectAcrossScopes, lifetime);
    }
  });

  it('a scoped service cannot be resolved outside a request or by a singleton', () => {
    const Scoped = createToken<object>('Scoped');
    const Single = createToken<object>('Single');
    const p = provider((s) => {
      s.add(Scoped, () => ({}), { lifetime: Lifetime.Scoped });
      s.add(Single, (r) => ({ inner: r.get(Scoped) }));
    });
    assert.throws(() => p.get(Scoped), ServiceLifetimeError);
    assert.throws(() => p.createScope().get(Single), ServiceLifetimeError);
  });

  it('a circle of dependencies is reported, naming the services', () => {
    const A = createToken<object>('A');
    const B = createToken<object>('B');
    const p = provider((s) => s.add(A, (r) => r.get(B)).add(B, (r) => r.get(A)));
    assert.throws(
      () => p.get(A),
      (e: Error) => e instanceof ServiceCycleError && /A -> B -> A/.test(e.message),
    );
  });

  it('classes are tokens too, and bad registrations are refused clearly', () => {
    class Clock {
      now() {
        return 42;
      }
    }
    const p = provider((s) => s.add(Clock, () => new Clock()));
    assert.equal(p.get(Clock).now(), 42);
    const s = new ServiceCollection();
    assert.throws(() => s.add(Greeter, 'nope' as never), /factory/);
    assert.throws(() => s.add(Greeter, () => make('x'), { type: 'sometimes' as never }), /registration type/);
    assert.throws(() => s.add(Greeter, () => make('x'), { lifetime: 'forever' as never }), /lifetime/);
  });

  it('services cannot change once the app is built', async () => {
    const app = createApp();
    app.route(route('GET', '/', (ctx) => ctx.services.get(Greeter).greet()));
    app.services.add(Greeter, () => make('hello'));
    assert.equal((await app.inject({ url: '/' })).body, 'hello');
    assert.throws(() => app.services.add(Greeter, () => make('late')), ServiceLifetimeError);
  });
});
