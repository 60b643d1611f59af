import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPublicAddress } from './public-address.js';

describe('isPublicAddress', () => {
  it('admits public unicast addresses', () => {
    for (const address of ['93.184.215.14', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001:82a::200e', '::ffff:8.8.8.8']) {
      assert.equal(isPublicAddress(address), true, address);
    }
  });

  it('refuses loopback, private, link-local, shared, documentation, multicast and reserved addresses, and IPv6 forms of IPv4', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.0.9',
      '0.0.0.0',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.0.10',
      '169.254.169.254',
      '100.64.0.1',
      '192.0.2.1',
      '198.18.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '64:ff9b::7f00:1',
      '2002:7f00:1::',
      '2001:db8::1',
      'fd00::1',
      'fe80::1',
      'ff02::1',
      'not an address',
      'localhost',
    ]) {
      assert.equal(isPublicAddress(address), false, address);
    }
  });
});
