// The adversarial table: every row is a URL, the policy it runs under, and the verdict
// (allowed, or blocked with a reason and category). Offline: DNS is a fixed table.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createUrlPolicy, parseUrlPolicyConfig, type HostResolver, type UrlPolicy } from '../index.ts';

const dns: Record<string, string[]> = {
  'example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'www.example.com': ['93.184.215.14'],
  'sub.example.com': ['93.184.215.15'],
  'evil.example.net': ['203.0.114.9', '127.0.0.1'], // one bad answer among good ones
  'rebind.test': ['10.0.0.5'],
  'internal.corp': ['192.168.1.10'],
  'cgnat.test': ['100.64.12.1'],
  'metadata.test': ['169.254.169.254'],
  'linklocal6.test': ['fe80::1'],
  'ula.test': ['fd12:3456::1'],
  'mapped.test': ['::ffff:127.0.0.1'],
  'nat64.test': ['64:ff9b::a00:1'], // 10.0.0.1 through NAT64
  'sixtofour.test': ['2002:7f00:1::1'], // 127.0.0.1 through 6to4
  'v6only.test': ['2a00:1450:4001:82b::200e'],
  'loop6.test': ['::1'],
  'zero.test': ['0.0.0.0'],
  'multicast.test': ['239.1.2.3'],
  'fakeip.test': ['198.18.0.7'],
  'garbage.test': ['not-an-ip'],
  'ex_ample.com': ['93.184.215.20'],
  'xn--nxasmq6b.com': ['93.184.215.21'],
  'a.b.c.example.org': ['93.184.215.22'],
  'example.org': ['93.184.215.23'],
  'notexample.com': ['93.184.215.24'],
  localhost: ['127.0.0.1', '::1'],
};

const resolver: HostResolver = async (host) => {
  if (host === 'slow-fail.test') throw Object.assign(new Error('timeout'), { code: 'ETIMEOUT' });
  const answers = dns[host];
  if (!answers) throw Object.assign(new Error(`no such host ${host}`), { code: 'ENOTFOUND' });
  return answers.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }));
};

function policyOf(open: Record<string, unknown> | null): UrlPolicy {
  const parsed = parseUrlPolicyConfig(open ? { open } : {}, 'test-policy.json');
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return createUrlPolicy({ config: parsed.config, resolve: resolver });
}

const policies = {
  default: policyOf(null),
  allowlist: policyOf({
    allow_hosts: ['example.com', '127.0.0.1'],
    allow_host_suffixes: ['.example.com', 'example.org'],
  }),
  loopbackLifted: policyOf({ allow_private_networks: ['loopback'] }),
  allLifted: policyOf({ allow_private_networks: true }),
  noBlank: policyOf({ allow_about_blank: false }),
  httpsOnly: policyOf({ allow_schemes: ['https'] }),
  emptyAllowlist: policyOf({ allow_hosts: [] }),
};
type PolicyName = keyof typeof policies;

type Row = [url: string, policy: PolicyName, expected: 'ok' | `${string}` /* reason or reason:category */];

const rows: Row[] = [
  // Plain public URLs
  ['https://example.com/', 'default', 'ok'],
  ['http://example.com:8080/path?q=1#frag', 'default', 'ok'],
  ['HTTPS://EXAMPLE.COM/', 'default', 'ok'],
  ['https://example.com./', 'default', 'ok'],
  ['https://v6only.test/', 'default', 'ok'],
  ['https://[2a00:1450:4001:82b::200e]/', 'default', 'ok'],
  ['https://93.184.215.14/', 'default', 'ok'],
  ['https://ex_ample.com/', 'default', 'ok'],
  ['https://mañana.com/', 'default', 'dns_failed'], // punycoded by the parser, unknown to our DNS
  ['https://xn--nxasmq6b.com/', 'default', 'ok'],
  ['about:blank', 'default', 'ok'],
  ['ABOUT:BLANK', 'default', 'ok'],
  // Schemes
  ['about:blank', 'noBlank', 'scheme'],
  ['about:srcdoc', 'default', 'scheme'],
  ['file:///etc/passwd', 'default', 'scheme'],
  ['data:text/html,<script>alert(1)</script>', 'default', 'scheme'],
  ['javascript:alert(1)', 'default', 'scheme'],
  ['chrome://settings', 'default', 'scheme'],
  ['devtools://devtools/bundled/inspector.html', 'default', 'scheme'],
  ['chrome-extension://abcdefghijklmnop/page.html', 'default', 'scheme'],
  ['view-source:https://example.com', 'default', 'scheme'],
  ['ftp://example.com/file', 'default', 'scheme'],
  ['ws://example.com/socket', 'default', 'scheme'],
  ['blob:https://example.com/uuid', 'default', 'scheme'],
  ['http://example.com/', 'httpsOnly', 'scheme'],
  ['https://example.com/', 'httpsOnly', 'ok'],
  // Not URLs
  ['', 'default', 'invalid_url'],
  ['example.com', 'default', 'invalid_url'],
  ['//example.com/', 'default', 'invalid_url'],
  ['http://', 'default', 'invalid_url'],
  ['http://[::1', 'default', 'invalid_url'],
  ['http://08.1.1.1/', 'default', 'invalid_url'],
  ['http://[fe80::1%25eth0]/', 'default', 'invalid_url'],
  // Loopback in every notation
  ['http://localhost/', 'default', 'blocked_name:loopback'],
  ['http://LOCALHOST./', 'default', 'blocked_name:loopback'],
  ['http://app.localhost:3000/', 'default', 'blocked_name:loopback'],
  ['http://127.0.0.1/', 'default', 'blocked_address:loopback'],
  ['http://127.0.0.1./', 'default', 'blocked_address:loopback'],
  ['http://127.1/', 'default', 'blocked_address:loopback'],
  ['http://127.0.1/', 'default', 'blocked_address:loopback'],
  ['http://2130706433/', 'default', 'blocked_address:loopback'],
  ['http://017700000001/', 'default', 'blocked_address:loopback'],
  ['http://0177.0.0.1/', 'default', 'blocked_address:loopback'],
  ['http://0x7f.1/', 'default', 'blocked_address:loopback'],
  ['http://0x7f000001/', 'default', 'blocked_address:loopback'],
  ['http://0x7F.0x00.0x00.0x01/', 'default', 'blocked_address:loopback'],
  ['http://127.255.255.254/', 'default', 'blocked_address:loopback'],
  ['http://%31%32%37.0.0.1/', 'default', 'blocked_address:loopback'],
  ['http://１２７.０.０.１/', 'default', 'blocked_address:loopback'],
  ['http:\\\\127.0.0.1\\', 'default', 'blocked_address:loopback'],
  ['http://[::1]/', 'default', 'blocked_address:loopback'],
  ['http://[0:0:0:0:0:0:0:1]/', 'default', 'blocked_address:loopback'],
  ['http://[::ffff:127.0.0.1]/', 'default', 'blocked_address:ipv4_mapped'],
  ['http://[::ffff:7f00:1]/', 'default', 'blocked_address:ipv4_mapped'],
  ['http://[0:0:0:0:0:ffff:127.0.0.1]/', 'default', 'blocked_address:ipv4_mapped'],
  ['http://[::ffff:8.8.8.8]/', 'default', 'blocked_address:ipv4_mapped'],
  ['http://[::127.0.0.1]/', 'default', 'blocked_address:ipv4_mapped'],
  ['http://127.0.0.1..', 'default', 'invalid_host'],
  // Userinfo and confusables
  ['http://evil@127.0.0.1/', 'default', 'credentials'],
  ['http://example.com@127.0.0.1/', 'default', 'credentials'],
  ['http://user:pass@example.com/', 'default', 'credentials'],
  ['http://127.0.0.1:80@example.com/', 'default', 'credentials'],
  ['http://example.com#@127.0.0.1/', 'default', 'ok'],
  ['http://example.com\\@127.0.0.1/', 'default', 'ok'], // backslash ends the authority: host is example.com
  // Private, CGNAT, link-local, metadata, unspecified, multicast, broadcast
  ['http://10.0.0.1/', 'default', 'blocked_address:private'],
  ['http://10.255.255.255/', 'default', 'blocked_address:private'],
  ['http://172.16.0.1/', 'default', 'blocked_address:private'],
  ['http://172.31.255.255/', 'default', 'blocked_address:private'],
  ['http://172.32.0.1/', 'default', 'ok'], // just past 172.16/12: public, and a literal needs no DNS
  ['http://192.168.0.1/', 'default', 'blocked_address:private'],
  ['http://3232235521/', 'default', 'blocked_address:private'], // 192.168.0.1 in decimal
  ['http://0xc0.0xa8.0.1/', 'default', 'blocked_address:private'],
  ['http://100.64.0.1/', 'default', 'blocked_address:cgnat'],
  ['http://100.127.255.255/', 'default', 'blocked_address:cgnat'],
  ['http://100.128.0.1/', 'default', 'ok'],
  ['http://169.254.169.254/latest/meta-data/', 'default', 'blocked_address:metadata'],
  ['http://2852039166/', 'default', 'blocked_address:metadata'], // 169.254.169.254 in decimal
  ['http://0xa9.0xfe.0xa9.0xfe/', 'default', 'blocked_address:metadata'],
  ['http://[fd00:ec2::254]/', 'default', 'blocked_address:metadata'],
  ['http://metadata.google.internal/', 'default', 'blocked_name:metadata'],
  ['http://169.254.1.1/', 'default', 'blocked_address:link_local'],
  ['http://[fe80::1]/', 'default', 'blocked_address:link_local'],
  ['http://[FC00::1]/', 'default', 'blocked_address:ula'],
  ['http://[fd12:3456:789a::1]/', 'default', 'blocked_address:ula'],
  ['http://0.0.0.0/', 'default', 'blocked_address:unspecified'],
  ['http://0/', 'default', 'blocked_address:unspecified'],
  ['http://[::]/', 'default', 'blocked_address:unspecified'],
  ['http://224.0.0.1/', 'default', 'blocked_address:multicast'],
  ['http://[ff02::1]/', 'default', 'blocked_address:multicast'],
  ['http://255.255.255.255/', 'default', 'blocked_address:broadcast'],
  ['http://[64:ff9b::7f00:1]/', 'default', 'blocked_address:loopback'], // NAT64 of 127.0.0.1
  ['http://[2002:a9fe:a9fe::1]/', 'default', 'blocked_address:metadata'], // 6to4 of 169.254.169.254
  ['http://[2002:5db8:d70e::1]/', 'default', 'ok'], // 6to4 of a public address
  // DNS: every answer is checked
  ['https://evil.example.net/', 'default', 'blocked_address:loopback'],
  ['https://rebind.test/', 'default', 'blocked_address:private'],
  ['https://internal.corp/', 'default', 'blocked_address:private'],
  ['https://cgnat.test/', 'default', 'blocked_address:cgnat'],
  ['https://metadata.test/', 'default', 'blocked_address:metadata'],
  ['https://linklocal6.test/', 'default', 'blocked_address:link_local'],
  ['https://ula.test/', 'default', 'blocked_address:ula'],
  ['https://mapped.test/', 'default', 'blocked_address:ipv4_mapped'],
  ['https://nat64.test/', 'default', 'blocked_address:private'],
  ['https://sixtofour.test/', 'default', 'blocked_address:loopback'],
  ['https://loop6.test/', 'default', 'blocked_address:loopback'],
  ['https://zero.test/', 'default', 'blocked_address:unspecified'],
  ['https://multicast.test/', 'default', 'blocked_address:multicast'],
  ['https://fakeip.test/', 'default', 'blocked_address:reserved'],
  ['https://garbage.test/', 'default', 'dns_failed'],
  ['https://nowhere.test/', 'default', 'dns_failed'],
  ['https://slow-fail.test/', 'default', 'dns_failed'],
  ['http://a..b/', 'default', 'invalid_host'],
  [
    'http://1.2.3.4.5.6.7.8.9.0.1.2.3.4.5.6.7.8.9.0.1.2.3.4.5.6.7.8.9.0.1.2.3.4.5.6.7.8.9.0.1.2.3.4.5.6.7.8.9.0.1.2.3.4.5.6.7.8.9.0.1.2.3.4.5.6.7.8.9.0.1.2.3.4.5.6.7.8.9.0/',
    'default',
    'invalid_url',
  ],
  // Allowlist (seed 004 semantics: any allowlist field means "only these")
  ['https://example.com/', 'allowlist', 'ok'],
  ['https://EXAMPLE.com./x', 'allowlist', 'ok'],
  ['https://sub.example.com/', 'allowlist', 'ok'],
  ['https://www.example.com/', 'allowlist', 'ok'],
  ['https://notexample.com/', 'allowlist', 'not_allowlisted'],
  ['https://example.com.evil.net/', 'allowlist', 'not_allowlisted'],
  ['https://example.org/', 'allowlist', 'ok'], // suffix without a dot also matches itself
  ['https://a.b.c.example.org/', 'allowlist', 'ok'],
  ['https://evil.example.net/', 'allowlist', 'not_allowlisted'],
  ['http://127.0.0.1/', 'allowlist', 'blocked_address:loopback'], // allowlisted, still loopback
  ['http://2130706433/', 'allowlist', 'blocked_address:loopback'],
  ['https://example.com/', 'emptyAllowlist', 'not_allowlisted'],
  ['about:blank', 'emptyAllowlist', 'ok'],
  // Explicit lifts
  ['http://127.0.0.1:5173/', 'loopbackLifted', 'ok'],
  ['http://localhost:5173/', 'loopbackLifted', 'ok'],
  // The browser sends *.localhost to loopback itself: no DNS record is needed (none exists here).
  ['http://app.localhost:3000/', 'loopbackLifted', 'ok'],
  ['http://a.b.localhost/', 'loopbackLifted', 'ok'],
  ['http://app.localhost:3000/', 'allowlist', 'not_allowlisted'],
  ['http://[::1]:5173/', 'loopbackLifted', 'ok'],
  ['http://10.0.0.1/', 'loopbackLifted', 'blocked_address:private'],
  ['http://[::ffff:127.0.0.1]/', 'loopbackLifted', 'blocked_address:ipv4_mapped'],
  ['http://169.254.169.254/', 'allLifted', 'blocked_address:metadata'],
  ['http://0.0.0.0/', 'allLifted', 'blocked_address:unspecified'],
  ['http://192.168.1.1/', 'allLifted', 'ok'],
  ['https://fakeip.test/', 'allLifted', 'ok'],
  ['http://224.0.0.1/', 'allLifted', 'blocked_address:multicast'],
];

const table = suite('url policy table');

table('has at least 60 adversarial rows', () => {
  assert.ok(rows.length >= 60, `only ${rows.length} rows`);
});

for (const [url, policyName, expected] of rows) {
  table(`${policyName}: ${url.slice(0, 80)} -> ${expected}`, async () => {
    const verdict = await policies[policyName].check(url);
    if (expected === 'ok') {
      assert.ok(verdict.ok, verdict.ok ? '' : `blocked: ${verdict.error.message}`);
      return;
    }
    assert.not.ok(verdict.ok, `${url} was allowed`);
    if (verdict.ok) return;
    const [reason, category] = expected.split(':');
    assert.is(verdict.error.code, 'URL_BLOCKED');
    assert.is(verdict.error.retryable, false);
    assert.is(verdict.error.details.reason, reason, verdict.error.message);
    if (category) assert.is(verdict.error.details.category, category, verdict.error.message);
    assert.is(verdict.error.details.stage, 'request');
    assert.ok(verdict.error.message.length > 10);
  });
}

table.run();
