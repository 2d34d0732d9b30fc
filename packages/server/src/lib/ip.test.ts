import { describe, expect, it } from 'vitest';
import { ipBucket, isLoopback } from './ip.js';

describe('ipBucket', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['0.0.0.0', '0.0.0.0'],
    ['255.255.255.255', '255.255.255.255'],
    // Written another way, the same address lands in the same bucket.
    ['203.0.113.07', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:aaaa::1', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:bbbb:cccc:dddd:eeee', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
  ])('counts %s as %s', (ip, bucket) => expect(ipBucket(ip)).toBe(bucket));
});

describe('isLoopback', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.9.9.9', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['10.0.0.1', false],
    ['2001:db8::1', false],
    ['not an ip', false],
  ])('%s → %s', (ip, loopback) => expect(isLoopback(ip)).toBe(loopback));
});
