// The Host rule at the function: loopback, localhost names and configured public hosts pass;
// rebound names, malformed headers and look-alike suffixes do not.
import { describe, expect, it } from 'vitest';
import { hostNameOf, isAllowedHost, isLoopbackAddress } from './host-rule.js';

describe('isAllowedHost', () => {
  it('admits loopback addresses with or without a port', () => {
    for (const host of ['127.0.0.1:4011', '127.0.0.2', '[::1]:4010', 'localhost', 'LOCALHOST:4011'])
      expect(isAllowedHost(host), host).toBe(true);
  });
  it('admits *.localhost names, one per mall', () => {
    expect(isAllowedHost('qa1.localhost:4011')).toBe(true);
    expect(isAllowedHost('qa1.localhost.:4011')).toBe(true);
  });
  it('refuses a rebound name, a missing header and malformed headers', () => {
    for (const host of [undefined, '', 'evil.example', 'evil.example:4011', 'a@127.0.0.1', '127.0.0.1/x'])
      expect(isAllowedHost(host), String(host)).toBe(false);
  });
  it('refuses names that only end like localhost or contain it', () => {
    expect(isAllowedHost('evillocalhost')).toBe(false);
    expect(isAllowedHost('localhost.evil.example')).toBe(false);
  });
  it('admits configured public hosts and their subdomains, nothing that merely ends like them', () => {
    const hosts = ['Sandbox.Example.com'];
    expect(isAllowedHost('sandbox.example.com:443', hosts)).toBe(true);
    expect(isAllowedHost('qa1.sandbox.example.com', hosts)).toBe(true);
    expect(isAllowedHost('evilsandbox.example.com', hosts)).toBe(false);
    expect(isAllowedHost('sandbox.example.com.evil.example', hosts)).toBe(false);
  });
});

describe('isLoopbackAddress', () => {
  it('tells loopback addresses from others', () => {
    for (const address of ['127.0.0.1', '127.9.9.9', '::1', '[::1]', '::ffff:127.0.0.1', 'localhost'])
      expect(isLoopbackAddress(address), address).toBe(true);
    for (const address of [undefined, '0.0.0.0', '::', '192.0.2.10', '::ffff:192.0.2.1', '128.0.0.1'])
      expect(isLoopbackAddress(address), String(address)).toBe(false);
  });
});

describe('hostNameOf', () => {
  it('drops the port and the case', () => {
    expect(hostNameOf('QA1.Localhost:4011')).toBe('qa1.localhost');
    expect(hostNameOf('[::1]:4010')).toBe('[::1]');
  });
});
