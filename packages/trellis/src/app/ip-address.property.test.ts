// Addresses and trusted proxies against the references they follow: every string is an IP address exactly when
// node:net says so, and a trust list trusts the same addresses, and picks the same client, as proxy-addr (the
// package Express and Fastify use) for the addresses and subnets both accept.
import assert from 'node:assert/strict';
import { isIP } from 'node:net';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import proxyaddr from 'proxy-addr';
import { clientAddress, compileTrust } from './client-address.js';
import { ipVersion } from './ip-address.js';

const octet = fc.oneof(fc.integer({ min: 0, max: 255 }).map(String), fc.constantFrom('256', '01', '00', '999', '', 'a', '1e1'));
const v4 = fc.tuple(octet, octet, octet, octet).map((o) => o.join('.'));
const goodV4 = fc.tuple(...[0, 0, 0, 0].map(() => fc.integer({ min: 0, max: 255 }))).map((o) => o.join('.'));
const hexGroup = fc.oneof(
  fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16)),
  fc.constantFrom('0', 'ffff', 'FFFF', 'db8', '00000', 'g1', '', '12345'),
);
const v6 = fc
  .tuple(
    fc.array(hexGroup, { minLength: 0, maxLength: 9 }),
    fc.integer({ min: -1, max: 9 }),
    fc.option(goodV4),
    fc.option(fc.constantFrom('%eth0', '%1', '%', '%a b')),
  )
  .map(([groups, gap, tail, zone]) => {
    const parts = [...groups];
    if (gap >= 0 && gap <= parts.length) parts.splice(gap, 0, '');
    let text = parts.join(':');
    if (gap === 0) text = ':' + text;
    if (gap === parts.length - 1) text += ':';
    if (tail !== null) text += (text.endsWith(':') ? '' : ':') + tail;
    return text + (zone ?? '');
  });
const anyText = fc.oneof(
  v4,
  v6,
  fc.string({ maxLength: 12 }),
  fc.constantFrom('::', ':::', '::1', '1::', ':1', '1:', '::ffff:1.2.3.4', '[::1]'),
);

const goodV6 = fc
  .tuple(...Array.from({ length: 8 }, () => fc.integer({ min: 0, max: 0xffff })))
  .map((w) => w.map((n) => n.toString(16)).join(':'));
const address = fc.oneof(
  goodV4,
  goodV6,
  goodV4.map((a) => `::ffff:${a}`),
  fc.constantFrom('127.0.0.1', '10.1.2.3', '172.16.5.4', '192.168.1.1', '169.254.1.1', '::1', 'fe80::1', 'fc00::5', '::ffff:10.0.0.1'),
);
const subnet = fc.oneof(
  fc.constantFrom(
    'loopback',
    'linklocal',
    'uniquelocal',
    '10.0.0.0/8',
    '::ffff:10.0.0.0/104',
    '::ffff:0:0/96',
    '::ffff:10.0.0.1',
    'fc00::/7',
  ),
  fc.tuple(goodV4, fc.integer({ min: 1, max: 32 })).map(([a, n]) => `${a}/${n}`),
  fc.tuple(goodV6, fc.integer({ min: 1, max: 128 })).map(([a, n]) => `${a}/${n}`),
  fc
    .tuple(goodV4, fc.integer({ min: 1, max: 32 }))
    .map(([a, n]) => `${a}/${[0, 8, 16, 24].map((s) => ((0xffffffff << (32 - n)) >>> (24 - s)) & 0xff).join('.')}`),
  goodV4,
);

describe('IP addresses and trusted proxies, differentially', () => {
  it('reads a string as an IPv4 or IPv6 address exactly when node:net does', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        assert.equal(ipVersion(text), isIP(text), text);
      }),
      { numRuns: 20000 },
    );
  });

  it('trusts the same addresses as proxy-addr for the same list', () => {
    fc.assert(
      fc.property(
        fc.array(subnet, { minLength: 1, maxLength: 3 }),
        fc.array(address, { minLength: 1, maxLength: 6 }),
        (list, addresses) => {
          const ours = compileTrust(list)!;
          const theirs = proxyaddr.compile(list);
          for (const a of addresses) assert.equal(ours(a, 0), theirs(a, 0), `${a} in ${list.join(', ')}`);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('picks the same client from X-Forwarded-For as proxy-addr', () => {
    fc.assert(
      fc.property(fc.array(subnet, { minLength: 1, maxLength: 3 }), address, fc.array(address, { maxLength: 4 }), (list, peer, hops) => {
        const xff = hops.join(', ');
        const headers = hops.length === 0 ? {} : { 'x-forwarded-for': xff };
        const theirs = proxyaddr({ socket: { remoteAddress: peer }, connection: { remoteAddress: peer }, headers } as never, list);
        assert.equal(clientAddress(peer, headers, compileTrust(list)), theirs);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses trust entries that are not addresses, subnets or range names, naming them', () => {
    for (const bad of ['10.0.0.0/0', '10.0.0.0/33', 'nope', '10.0.0.0/255.0.255.0', '::1/129', '10.1', ''])
      assert.throws(() => compileTrust([bad]), /trustProxy: invalid (IP address|range on address)/, bad);
  });
});
