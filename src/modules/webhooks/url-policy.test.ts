// Where webhooks may go: the URL rules that need no network, the resolved-address check (with an
// injected resolver: no test here touches DNS), and the table of internal addresses.
import assert from 'node:assert/strict';
import type { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { describe, it } from 'node:test';
import { checkDestinationUrl, checkResolvedAddresses, isInternalAddress, type Environment } from './url-policy.ts';

function accepted(url: string, environment: Environment): void {
  const result = checkDestinationUrl(url, environment);
  assert.equal(result.ok, true, `${url} in ${environment}: ${JSON.stringify(result)}`);
}

function refused(url: string, environment: Environment, message?: RegExp): void {
  const result = checkDestinationUrl(url, environment);
  assert.equal(result.ok, false, `${url} in ${environment} should be refused`);
  if (message && !result.ok) assert.match(result.message, message, url);
}

/** A resolver that answers these addresses (or fails) and records the names it was asked for. */
function resolver(answer: string[] | Error) {
  const asked: string[] = [];
  const resolve = (async (hostname: string, options: { all?: boolean }) => {
    asked.push(hostname);
    assert.equal(options.all, true, 'every address is asked for, not just the first');
    if (answer instanceof Error) throw answer;
    return answer.map((address) => ({ address, family: isIP(address) }));
  }) as unknown as typeof lookup;
  return { resolve, asked };
}

const bothEnvironments: Environment[] = ['sandbox', 'production'];

describe('checkDestinationUrl: scheme and shape', () => {
  it('accepts https in both environments and answers the parsed URL', () => {
    for (const environment of bothEnvironments) {
      for (const url of ['https://hooks.example.com/pvs', 'https://hooks.example.com:8443/a/b?c=d', 'https://93.184.216.34/hook', 'https://[2606:4700::1111]/hook']) {
        accepted(url, environment);
      }
      const result = checkDestinationUrl('https://Hooks.Example.COM/pvs?x=1', environment);
      assert.ok(result.ok);
      assert.equal(result.url.hostname, 'hooks.example.com');
      assert.equal(result.url.toString(), 'https://hooks.example.com/pvs?x=1');
    }
  });

  it('accepts http to localhost, 127.x and [::1] in sandbox', () => {
    for (const url of ['http://localhost/hook', 'http://localhost:3000/hook', 'http://LOCALHOST:3000/', 'http://127.0.0.1:8080/hook', 'http://127.5.6.7/', 'http://[::1]:9000/hook']) {
      accepted(url, 'sandbox');
    }
  });

  it('refuses http to any other host in sandbox', () => {
    for (const url of ['http://hooks.example.com/pvs', 'http://93.184.216.34/', 'http://10.0.0.1/', 'http://192.168.1.1/', 'http://localhost.example.com/', 'http://[fd00::1]/']) {
      refused(url, 'sandbox', /https/);
    }
  });

  it('refuses http in production, even to loopback', () => {
    for (const url of ['http://hooks.example.com/pvs', 'http://localhost:3000/', 'http://127.0.0.1/', 'http://[::1]/']) {
      refused(url, 'production', /must be https/);
    }
  });

  it('refuses credentials in the URL', () => {
    for (const environment of bothEnvironments) {
      for (const url of ['https://user:pass@hooks.example.com/', 'https://user@hooks.example.com/', 'https://:pass@hooks.example.com/', 'http://user:pass@localhost:3000/']) {
        refused(url, environment, /credentials/);
      }
    }
  });

  it('refuses a #fragment', () => {
    for (const environment of bothEnvironments) {
      refused('https://hooks.example.com/pvs#section', environment, /fragment/);
      refused('http://localhost:3000/#x', environment);
    }
  });

  it('refuses other schemes and text that is not an absolute URL', () => {
    for (const environment of bothEnvironments) {
      for (const url of ['ftp://hooks.example.com/', 'file:///etc/passwd', 'ws://localhost:3000/', 'wss://hooks.example.com/', 'javascript:alert(1)', 'data:text/plain,hi', 'mailto:a@example.com']) {
        refused(url, environment, /https/);
      }
      for (const text of ['', 'hooks.example.com/pvs', '/relative/path', 'https://', 'not a url']) {
        refused(text, environment, /absolute URL/);
      }
    }
  });
});

describe('checkDestinationUrl: literal internal addresses in production', () => {
  const internalUrls = [
    'https://localhost/hook',
    'https://LocalHost:8443/hook',
    'https://127.0.0.1/hook',
    'https://127.1.2.3/hook',
    'https://0x7f.1/hook', // 127.0.0.1, as the URL parser normalises it
    'https://2130706433/hook', // 127.0.0.1 as one number
    'https://0.0.0.0/hook',
    'https://10.1.2.3/hook',
    'https://172.16.0.1/hook',
    'https://172.31.255.254/hook',
    'https://192.168.0.10/hook',
    'https://169.254.169.254/latest/meta-data', // cloud metadata, link-local
    'https://100.64.0.1/hook', // CGNAT
    'https://100.127.255.254/hook',
    'https://[::1]/hook',
    'https://[::]/hook',
    'https://[fc00::1]/hook', // IPv6 unique local
    'https://[fd12:3456:789a::1]/hook',
    'https://[fe80::1]/hook', // IPv6 link-local
    'https://[::ffff:127.0.0.1]/hook', // IPv4-mapped loopback
    'https://[::ffff:10.0.0.1]/hook', // IPv4-mapped private
    'https://[::ffff:a9fe:a9fe]/hook', // IPv4-mapped 169.254.169.254, hex form
    'https://[0:0:0:0:0:ffff:c0a8:0101]/hook', // IPv4-mapped 192.168.1.1, long form
  ];

  it('refuses each with a message naming the rule', () => {
    for (const url of internalUrls) refused(url, 'production', /private, loopback or link-local/);
  });

  it('accepts them in sandbox over https (the sandbox may call a partner test box anywhere)', () => {
    for (const url of internalUrls) accepted(url, 'sandbox');
  });

  it('accepts public literal addresses in production', () => {
    for (const url of ['https://93.184.216.34/hook', 'https://8.8.8.8/', 'https://172.32.0.1/', 'https://100.128.0.1/', 'https://[2606:4700::1111]/', 'https://[::ffff:8.8.8.8]/']) {
      accepted(url, 'production');
    }
  });
});

describe('checkResolvedAddresses', () => {
  it('accepts a host whose every address is public, asking for all of them', async () => {
    const { resolve, asked } = resolver(['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']);
    assert.deepEqual(await checkResolvedAddresses('hooks.example.com', resolve), { ok: true });
    assert.deepEqual(asked, ['hooks.example.com']);
  });

  it('refuses a host when any resolved address is internal', async () => {
    for (const addresses of [['10.0.0.5'], ['93.184.216.34', '127.0.0.1'], ['93.184.216.34', '169.254.169.254'], ['2606:4700::1111', 'fd00::1'], ['::ffff:192.168.0.1'], ['100.64.1.1']]) {
      const result = await checkResolvedAddresses('hooks.example.com', resolver(addresses).resolve);
      assert.equal(result.ok, false, addresses.join());
      assert.ok(!result.ok && /private, loopback or link-local/.test(result.message), JSON.stringify(result));
    }
  });

  it('refuses a name that does not resolve, or resolves to nothing', async () => {
    const notFound = Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.invalid'), { code: 'ENOTFOUND' });
    assert.deepEqual(await checkResolvedAddresses('nowhere.invalid', resolver(notFound).resolve), { ok: false, message: 'does not resolve' });
    assert.deepEqual(await checkResolvedAddresses('empty.example.com', resolver([]).resolve), { ok: false, message: 'does not resolve' });
  });

  it('resolves a bracketed IPv6 hostname without its brackets', async () => {
    const { resolve, asked } = resolver(['2606:4700::1111']);
    assert.deepEqual(await checkResolvedAddresses('[2606:4700::1111]', resolve), { ok: true });
    assert.deepEqual(asked, ['2606:4700::1111']);
  });
});

describe('isInternalAddress', () => {
  const table: Array<[string, boolean]> = [
    // IPv4: this network, private, CGNAT, loopback, link-local, benchmarking, multicast, reserved
    ['0.0.0.0', true],
    ['0.1.2.3', true],
    ['10.0.0.1', true],
    ['10.255.255.255', true],
    ['100.64.0.0', true],
    ['100.127.255.255', true],
    ['100.63.255.255', false],
    ['100.128.0.0', false],
    ['127.0.0.1', true],
    ['127.255.255.254', true],
    ['169.254.169.254', true],
    ['172.15.255.255', false],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['172.32.0.0', false],
    ['192.0.0.8', true],
    ['192.168.1.1', true],
    ['198.18.0.1', true],
    ['198.19.255.255', true],
    ['224.0.0.1', true],
    ['239.255.255.250', true],
    ['240.0.0.1', true],
    ['255.255.255.255', true],
    ['1.1.1.1', false],
    ['8.8.8.8', false],
    ['93.184.216.34', false],
    ['11.0.0.1', false],
    ['192.169.0.1', false],
    // IPv6: unspecified, loopback, ULA, link-local, multicast
    ['::', true],
    ['::1', true],
    ['0:0:0:0:0:0:0:1', true],
    ['fc00::1', true],
    ['fd00::1', true],
    ['fdff:ffff::1', true],
    ['fe80::1', true],
    ['febf::1', true],
    ['ff02::1', true],
    ['FE80::ABCD', true],
    ['2001:4860:4860::8888', false],
    ['2606:4700::1111', false],
    ['2a00:1450::1', false],
    // IPv4-mapped IPv6: judged by the IPv4 address inside, in either notation
    ['::ffff:127.0.0.1', true],
    ['::FFFF:10.0.0.1', true],
    ['::ffff:169.254.169.254', true],
    ['::ffff:100.64.0.1', true],
    ['::ffff:7f00:1', true],
    ['::ffff:c0a8:101', true],
    ['0:0:0:0:0:ffff:a00:1', true],
    ['::ffff:8.8.8.8', false],
    ['::ffff:808:808', false],
    // Not an address at all: refused rather than trusted
    ['localhost', true],
    ['hooks.example.com', true],
    ['', true],
    ['999.1.1.1', true],
  ];

  for (const [address, expected] of table) {
    it(`${JSON.stringify(address)} → ${expected ? 'internal' : 'public'}`, () => {
      assert.equal(isInternalAddress(address), expected);
    });
  }
});
