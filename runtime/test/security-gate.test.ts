// The request gate (runtime/http/request-gate.ts) as a pure function: the class of Host and
// Origin forms an attacker (or a DNS-rebinding page) can produce, against the ones we accept.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_EXTENSION_ID } from '../../transport/contracts/extension-identity.ts';
import { canonicalHost, createRequestGate, type GateInput } from '../http/request-gate.ts';

const test = suite('request gate');
const gate = createRequestGate({
  publicBaseUrl: 'http://localhost:6006',
  corsOrigins: ['http://localhost:3000', 'https://ui.example.com'],
  allowedHosts: ['mimo.lan', '192.168.1.20'],
  extensionIds: ['abcdefghijklmnopabcdefghijklmnop'],
  bindHost: '127.0.0.1',
});
const req = (host: string | undefined, origin?: string, extra: Partial<GateInput> = {}): GateInput => ({
  method: 'GET',
  host,
  origin,
  ...extra,
});
const verdict = (input: GateInput) => {
  const v = gate.check(input);
  return v.ok ? `ok:${v.origin}` : `${v.status}:${v.reason}`;
};

test('hosts: loopback names, the public URL host and MIMO_ALLOWED_HOSTS pass, with any port', () => {
  for (const host of [
    'localhost',
    'localhost:6006',
    'LOCALHOST:6006',
    'localhost.:6006',
    '127.0.0.1:6006',
    '127.1:6006',
    '[::1]:6006',
    '[0:0:0:0:0:0:0:1]',
    'mimo.lan',
    'MIMO.LAN.',
    '192.168.1.20:80',
  ]) {
    assert.is(verdict(req(host)), 'ok:none', host);
  }
});

test('hosts: DNS-rebinding names, userinfo, paths, odd syntax and a missing Host are refused', () => {
  const cases: Array<[string | undefined, string]> = [
    ['evil.example', '421:host_not_allowed'],
    ['evil.example:6006', '421:host_not_allowed'],
    ['localhost.evil.example', '421:host_not_allowed'],
    ['foo.localhost', '421:host_not_allowed'],
    ['127.0.0.2', '421:host_not_allowed'],
    ['0.0.0.0:6006', '421:host_not_allowed'],
    ['[::ffff:127.0.0.1]', '421:host_not_allowed'],
    ['localhost..', '400:host_malformed'],
    ['evil.example@localhost', '400:host_malformed'],
    ['localhost@evil.example', '400:host_malformed'],
    ['user:pw@localhost:6006', '400:host_malformed'],
    ['localhost/evil', '400:host_malformed'],
    ['localhost:6006 evil', '400:host_malformed'],
    ['%6cocalhost', '400:host_malformed'],
    ['localhost:99999', '400:host_malformed'],
    ['[::1', '400:host_malformed'],
    ['', '400:host_missing'],
    [undefined, '400:host_missing'],
  ];
  for (const [host, expected] of cases) assert.is(verdict(req(host)), expected, String(host));
});

test('origins: the own origin, listed ones and the extension pass; null and everything else is refused', () => {
  const ok: Array<[string, string, string]> = [
    ['localhost:6006', 'http://localhost:6006', 'ok:own'],
    ['127.0.0.1:6006', 'http://127.0.0.1:6006', 'ok:own'],
    ['[::1]:6006', 'http://[::1]:6006', 'ok:own'],
    ['mimo.lan', 'http://mimo.lan', 'ok:own'],
    ['mimo.lan:80', 'http://mimo.lan', 'ok:own'],
    ['localhost:6006', 'http://localhost:3000', 'ok:listed'],
    ['localhost:6006', 'https://ui.example.com', 'ok:listed'],
    ['localhost:6006', `chrome-extension://${DEFAULT_EXTENSION_ID}`, 'ok:extension'],
    ['localhost:6006', 'chrome-extension://abcdefghijklmnopabcdefghijklmnop', 'ok:extension'],
  ];
  for (const [host, origin, expected] of ok) assert.is(verdict(req(host, origin)), expected, `${host} ${origin}`);
  const refused = [
    'null',
    'http://evil.example',
    'http://localhost:8080', // another local port: another origin
    'http://127.0.0.1:6006', // sent to localhost:6006: not the same origin
    'https://localhost:6006',
    'http://localhost:6006/',
    'http://localhost:6006.evil.example',
    'http://evil.example@localhost:6006',
    'https://ui.example.com.evil.example',
    'chrome-extension://ppppppppppppppppppppppppppppppppp',
    'chrome-extension://pppppppppppppppppppppppppppppppp',
    `chrome-extension://${DEFAULT_EXTENSION_ID}/`,
    `moz-extension://${DEFAULT_EXTENSION_ID}`,
    'file://',
    '',
  ];
  for (const origin of refused) {
    const v = verdict(req('localhost:6006', origin));
    assert.ok(v.startsWith('403:'), `${JSON.stringify(origin)} -> ${v}`);
  }
});

test("a DNS-rebinding page: Host and Origin both the attacker's name -> refused on Host", () => {
  assert.is(verdict(req('evil.example:6006', 'http://evil.example:6006')), '421:host_not_allowed');
});

test("no Origin: non-browser clients pass; a browser's cross-site no-cors request does not; navigations do", () => {
  assert.is(verdict(req('localhost:6006', undefined)), 'ok:none');
  assert.is(
    verdict(req('localhost:6006', undefined, { secFetchSite: 'same-origin', secFetchMode: 'no-cors' })),
    'ok:none',
  );
  assert.is(verdict(req('localhost:6006', undefined, { secFetchSite: 'none', secFetchMode: 'navigate' })), 'ok:none');
  assert.is(
    verdict(req('localhost:6006', undefined, { secFetchSite: 'cross-site', secFetchMode: 'navigate' })),
    'ok:none',
  );
  assert.is(
    verdict(req('localhost:6006', undefined, { secFetchSite: 'cross-site', secFetchMode: 'no-cors' })),
    '403:cross_site_request',
  );
  assert.is(
    verdict(req('localhost:6006', undefined, { secFetchSite: 'same-site', secFetchMode: 'no-cors' })),
    '403:cross_site_request',
  );
  assert.is(
    verdict(
      req('localhost:6006', undefined, { secFetchSite: 'cross-site', secFetchMode: 'no-cors', secFetchDest: 'script' }),
    ),
    '403:cross_site_request',
  );
  // Images pass (opaque to the page; a UI on 127.0.0.1 shows screenshots whose URL names localhost), GET only.
  assert.is(
    verdict(
      req('localhost:6006', undefined, { secFetchSite: 'cross-site', secFetchMode: 'no-cors', secFetchDest: 'image' }),
    ),
    'ok:none',
  );
  assert.is(
    verdict(
      req('localhost:6006', undefined, {
        method: 'POST',
        secFetchSite: 'cross-site',
        secFetchMode: 'no-cors',
        secFetchDest: 'image',
      }),
    ),
    '403:cross_site_request',
  );
});

test('preflights go through the same gate', () => {
  assert.is(verdict(req('localhost:6006', 'http://evil.example', { method: 'OPTIONS' })), '403:origin_not_allowed');
  assert.is(verdict(req('localhost:6006', 'http://localhost:3000', { method: 'OPTIONS' })), 'ok:listed');
});

test('a wildcard bind address is not an allowed host; a concrete one is', () => {
  const wide = createRequestGate({ bindHost: '0.0.0.0' });
  assert.not.ok(wide.check(req('0.0.0.0')).ok);
  const lan = createRequestGate({ bindHost: '10.1.2.3' });
  assert.ok(lan.check(req('10.1.2.3:6006')).ok);
  const v6 = createRequestGate({ bindHost: 'fe80::1' });
  assert.ok(v6.check(req('[fe80::1]:6006')).ok);
});

test('canonicalHost', () => {
  assert.equal(canonicalHost('LocalHost.:06006'), { hostname: 'localhost', port: '6006' });
  assert.equal(canonicalHost('[0::1]'), { hostname: '[::1]', port: '' });
  assert.equal(canonicalHost('0x7f.1'), { hostname: '127.0.0.1', port: '' });
  assert.is(canonicalHost('a b'), null);
  assert.is(canonicalHost('a\\b'), null);
  assert.is(canonicalHost('x'.repeat(400)), null);
});

test('cross origins for CORS answers: the listed ones and the extension ids, nothing else', () => {
  assert.equal(
    [...gate.crossOrigins].sort(),
    [
      'chrome-extension://abcdefghijklmnopabcdefghijklmnop',
      `chrome-extension://${DEFAULT_EXTENSION_ID}`,
      'http://localhost:3000',
      'http://localhost:6006',
      'https://ui.example.com',
    ].sort(),
  );
});

test.run();
