// The pieces under the table: address parsing, ranges, the policy file, the final-URL check,
// the description, the system resolver wrapper.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  classifyAddress,
  createSystemResolver,
  createUrlPolicy,
  defaultUrlPolicyConfig,
  describePolicy,
  formatIp,
  loadUrlPolicyConfig,
  parseIp,
  parseIpv4,
  parseIpv6,
  parseUrlPolicyConfig,
  specialRanges,
} from '../index.ts';
import type { UrlCheck } from '../../agent/task-browser.ts';

const ip = suite('ip addresses');

ip('parses canonical IPv4 only', () => {
  assert.equal(Array.from(parseIpv4('192.168.0.1')!.bytes), [192, 168, 0, 1]);
  for (const bad of ['256.0.0.1', '1.2.3', '01.2.3.4', '1.2.3.4.', '0x7f.0.0.1', '', '1..2.3', ' 1.2.3.4'])
    assert.is(parseIpv4(bad), null, bad);
});

ip('parses IPv6 forms and formats them canonically', () => {
  const cases: Array<[string, string]> = [
    ['::1', '::1'],
    ['[::1]', '::1'],
    ['0:0:0:0:0:0:0:1', '::1'],
    ['::', '::'],
    ['::ffff:127.0.0.1', '::ffff:7f00:1'],
    ['2001:DB8::1', '2001:db8::1'],
    ['fe80:0:0:0:1:0:0:1', 'fe80::1:0:0:1'],
    ['1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8'],
  ];
  for (const [input, canonical] of cases) assert.is(formatIp(parseIpv6(input)!), canonical, input);
  for (const bad of [
    '1:2:3:4:5:6:7:8:9',
    '1::2::3',
    'fe80::1%eth0',
    '12345::',
    '::g',
    ':::',
    '1:2:3:4:5:6:7',
    '::1.2.3',
  ])
    assert.is(parseIpv6(bad), null, bad);
});

ip('every range in the table parses and contains its own network', () => {
  assert.ok(specialRanges.length > 30);
  for (const range of specialRanges) {
    const found = classifyAddress(range.network);
    assert.ok(found, range.cidr);
  }
});

ip('public addresses are not classified; embedded IPv4 is judged through NAT64 and 6to4', () => {
  assert.is(classifyAddress(parseIp('8.8.8.8')!), null);
  assert.is(classifyAddress(parseIp('2606:4700::1111')!), null);
  assert.equal(classifyAddress(parseIp('64:ff9b::c0a8:101')!), {
    category: 'private',
    cidr: '192.168.0.0/16',
    via: '64:ff9b::/96',
  });
  assert.is(classifyAddress(parseIp('64:ff9b::808:808')!), null);
});

const file = suite('policy file');

file('the seed 004 example parses', () => {
  const parsed = parseUrlPolicyConfig(
    {
      open: {
        allow_schemes: ['http', 'https'],
        allow_about_blank: true,
        allow_hosts: ['Example.com.'],
        allow_host_suffixes: ['.Example.com'],
      },
    },
    '/etc/p.json',
  );
  assert.ok(parsed.ok);
  if (!parsed.ok) return;
  assert.equal(parsed.config.allowHosts, ['example.com']);
  assert.equal(parsed.config.allowHostSuffixes, ['.example.com']);
  assert.equal(parsed.config.allowPrivateNetworks, []);
  assert.is(parsed.config.source, '/etc/p.json');
});

file('refuses schemes other than http(s), unknown keys, bad hosts and unknown categories', () => {
  const bad = [
    { open: { allow_schemes: ['file'] } },
    { open: { allow_host: ['example.com'] } },
    { open: { allow_hosts: ['exa mple.com'] } },
    { open: { allow_hosts: 'example.com' } },
    { open: { allow_private_networks: ['metadata'] } },
    { open: { allow_about_blank: 'yes' } },
  ];
  for (const json of bad) {
    const parsed = parseUrlPolicyConfig(json, 'p.json');
    assert.not.ok(parsed.ok, JSON.stringify(json));
    if (!parsed.ok) assert.match(parsed.errors[0]!, /^p\.json/);
  }
});

file('allow_private_networks: true lifts every liftable category, false none', () => {
  const all = parseUrlPolicyConfig({ open: { allow_private_networks: true } });
  const none = parseUrlPolicyConfig({ open: { allow_private_networks: false } });
  assert.ok(all.ok && none.ok);
  if (!all.ok || !none.ok) return;
  assert.equal(all.config.allowPrivateNetworks, ['loopback', 'private', 'cgnat', 'link_local', 'ula', 'reserved']);
  assert.equal(none.config.allowPrivateNetworks, []);
});

file('loading: no path means defaults; unreadable or invalid JSON are errors', async () => {
  assert.equal(await loadUrlPolicyConfig(undefined), { ok: true, config: defaultUrlPolicyConfig });
  const missing = await loadUrlPolicyConfig('/nope.json', async () => {
    throw Object.assign(new Error('x'), { code: 'ENOENT' });
  });
  assert.equal(missing, { ok: false, errors: ['/nope.json: cannot read the URL policy file (ENOENT)'] });
  const broken = await loadUrlPolicyConfig('/p.json', async () => '{ open: ');
  assert.not.ok(broken.ok);
  const good = await loadUrlPolicyConfig('/p.json', async () =>
    JSON.stringify({ open: { allow_private_networks: ['loopback'] } }),
  );
  assert.ok(good.ok && good.config.allowPrivateNetworks.includes('loopback') && good.config.source === '/p.json');
});

const final = suite('final URL after redirects');

final('checkFinal applies the same rules and says the page ended up there', async () => {
  const policy = createUrlPolicy({
    config: defaultUrlPolicyConfig,
    resolve: async () => [{ address: '93.184.215.14', family: 4 }],
  });
  assert.ok((await policy.checkFinal('https://example.com/landing')).ok);
  const verdict = await policy.checkFinal('http://169.254.169.254/latest');
  assert.not.ok(verdict.ok);
  if (verdict.ok) return;
  assert.is(verdict.error.details.stage, 'final');
  assert.is(verdict.error.details.category, 'metadata');
  assert.match(verdict.error.message, /after redirects/);
});

final('check and checkFinal are UrlChecks for runtime/agent/task-browser.ts', async () => {
  const policy = createUrlPolicy({
    config: defaultUrlPolicyConfig,
    resolve: async () => [{ address: '10.0.0.1', family: 4 }],
  });
  const check: UrlCheck = policy.check;
  const final: UrlCheck = policy.checkFinal;
  const verdict = await check('https://intranet.example/');
  assert.ok(!verdict.ok && verdict.error.code === 'URL_BLOCKED' && verdict.error.retryable === false);
  assert.not.ok((await final('http://localhost/')).ok);
});

final('the resolver is asked for names only, never for literals', async () => {
  const asked: string[] = [];
  const policy = createUrlPolicy({
    config: defaultUrlPolicyConfig,
    resolve: async (host) => {
      asked.push(host);
      return [{ address: '93.184.215.14', family: 4 }];
    },
  });
  await policy.check('http://8.8.8.8/');
  await policy.check('http://[2606:4700::1111]/');
  await policy.check('https://Example.COM./');
  assert.equal(asked, ['example.com']);
});

const describe = suite('describePolicy');

describe('defaults: everything non-public blocked, nothing lifted', () => {
  const d = describePolicy(defaultUrlPolicyConfig);
  assert.is(d.source, null);
  assert.is(d.allowlist, null);
  assert.equal(d.liftedCategories, []);
  assert.ok(d.blockedCategories.includes('loopback') && d.blockedCategories.includes('metadata'));
  assert.match(d.summary, /built-in defaults/);
  assert.match(d.summary, /Nothing lifted/);
});

describe('a file that lifts loopback says so, for the policy or its config', () => {
  const parsed = parseUrlPolicyConfig(
    { open: { allow_private_networks: ['loopback'], allow_host_suffixes: ['example.com'] } },
    'demo.json',
  );
  assert.ok(parsed.ok);
  if (!parsed.ok) return;
  const policy = createUrlPolicy({ config: parsed.config, resolve: async () => [] });
  const d = describePolicy(policy);
  assert.equal(d.liftedCategories, ['loopback']);
  assert.not.ok(d.blockedCategories.includes('loopback'));
  assert.equal(d.allowlist, { hosts: [], hostSuffixes: ['example.com'] });
  assert.match(d.summary, /LIFTED by the policy file: loopback/);
  assert.match(d.summary, /from demo\.json/);
  assert.equal(describePolicy(parsed.config), d);
});

const resolver = suite('system resolver');

resolver('maps families and gives up after its timeout', async () => {
  const ok = createSystemResolver({
    lookup: async () => [
      { address: '::1', family: 6 },
      { address: '1.2.3.4', family: 4 },
    ],
  });
  assert.equal(await ok('x'), [
    { address: '::1', family: 6 },
    { address: '1.2.3.4', family: 4 },
  ]);
  const hanging = createSystemResolver({ timeoutMs: 5, lookup: () => new Promise(() => {}) });
  try {
    await hanging('slow.test');
    assert.unreachable('should time out');
  } catch (error) {
    assert.is((error as NodeJS.ErrnoException).code, 'ETIMEOUT');
  }
});

ip.run();
file.run();
final.run();
describe.run();
resolver.run();
