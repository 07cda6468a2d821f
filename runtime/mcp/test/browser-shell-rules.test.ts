// browser-shell input rules (seed 004 §3.2, §3.4): every refusal in a table (exit code 2, the
// reply format, nothing sent to the extension), and what is accepted at the edges.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually } from '../../test/util.ts';
import { setup, teardown, type Ctx } from './shell-setup.ts';

const rules = suite<Ctx>('browser-shell input rules');
rules.before((ctx) => setup(ctx));
rules.after((ctx) => teardown(ctx));

const refusals: Array<[label: string, args: Record<string, unknown>, stderr: RegExp]> = [
  ['missing session_id', { argv: ['snapshot'] }, /session_id/],
  ['empty session_id', { session_id: '', argv: ['snapshot'] }, /session_id must match/],
  ['space in session_id', { session_id: 'a b', argv: ['snapshot'] }, /session_id must match/],
  ['path in session_id', { session_id: '../etc', argv: ['snapshot'] }, /session_id must match/],
  ['65-char session_id', { session_id: 'x'.repeat(65), argv: ['snapshot'] }, /session_id must match/],
  ['non-ASCII session_id', { session_id: 'sessión', argv: ['snapshot'] }, /session_id must match/],
  ['numeric session_id', { session_id: 5, argv: ['snapshot'] }, /session_id/],
  ['argv as a command string', { session_id: 'r', argv: 'open https://example.com' }, /argv/],
  [
    'a command field',
    { session_id: 'r', command: 'open https://example.com', argv: ['snapshot'] },
    /unknown field\(s\) "command"/,
  ],
  ['empty argv', { session_id: 'r', argv: [] }, /argv must name a subcommand/],
  ['65 argv elements', { session_id: 'r', argv: ['wait', ...Array(64).fill('1')] }, /at most 64 elements/],
  ['object in argv', { session_id: 'r', argv: ['open', { url: 'x' }] }, /argv\.1/],
  ['null in argv', { session_id: 'r', argv: ['open', null] }, /argv\.1/],
  ['nested array in argv', { session_id: 'r', argv: ['open', ['x']] }, /argv\.1/],
  ['over-long element', { session_id: 'r', argv: ['fill', '@e1', 'y'.repeat(4097)] }, /at most 4096 characters/],
  ['NUL in an element', { session_id: 'r', argv: ['fill', '@e1', 'a\u0000b'] }, /NUL/],
  ['number as subcommand', { session_id: 'r', argv: [1] }, /argv\[0\] must be a subcommand name/],
  ['timeout_sec 0', { session_id: 'r', argv: ['snapshot'], timeout_sec: 0 }, /timeout_sec must be positive/],
  ['timeout_sec 121', { session_id: 'r', argv: ['snapshot'], timeout_sec: 121 }, /timeout_sec is at most 120/],
  ['timeout_sec as text', { session_id: 'r', argv: ['snapshot'], timeout_sec: '30' }, /timeout_sec/],
  ['eval', { session_id: 'r', argv: ['eval', 'document.cookie'] }, /"eval" is denied/],
  ['EVALUATE', { session_id: 'r', argv: ['EVALUATE', '1'] }, /"evaluate" is denied/],
  ['upload', { session_id: 'r', argv: ['upload', '@e1', '/etc/passwd'] }, /"upload" is denied/],
  ['download', { session_id: 'r', argv: ['download', '@e1'] }, /"download" is denied/],
  ['route', { session_id: 'r', argv: ['route', '**', '--abort'] }, /"route" is denied/],
  ['unroute', { session_id: 'r', argv: ['unroute'] }, /"unroute" is denied/],
  ['goto (not allowlisted)', { session_id: 'r', argv: ['goto', 'https://example.com'] }, /not allowed; allowed: open/],
  ['Open (case matters)', { session_id: 'r', argv: ['Open', 'https://example.com'] }, /not allowed/],
  ['shell-ish subcommand', { session_id: 'r', argv: ['open;ls'] }, /not allowed/],
  ['--cdp', { session_id: 'r', argv: ['open', 'https://example.com', '--cdp', '9333'] }, /global option "--cdp"/],
  ['--cdp=9333', { session_id: 'r', argv: ['open', '--cdp=9333', 'https://example.com'] }, /global option/],
  ['--CDP', { session_id: 'r', argv: ['snapshot', '--CDP'] }, /global option/],
  ['em-dash cdp', { session_id: 'r', argv: ['snapshot', '—cdp'] }, /global option/],
  ['full-width --json', { session_id: 'r', argv: ['snapshot', '－－json'] }, /global option/],
  ['padded --session', { session_id: 'r', argv: ['snapshot', ' --session '] }, /global option/],
  ['--session=other', { session_id: 'r', argv: ['click', '--session=other'] }, /global option/],
  ['single-dash -session', { session_id: 'r', argv: ['snapshot', '-session', 'x'] }, /global option/],
  ['--json as argv[0]', { session_id: 'r', argv: ['--json'] }, /global option "--json" is set by the server/],
  [
    '--executable-path',
    { session_id: 'r', argv: ['open', 'https://example.com', '--executable-path=/bin/sh'] },
    /global option/,
  ],
  ['--headers', { session_id: 'r', argv: ['open', 'https://example.com', '--headers', '{"X":"1"}'] }, /global option/],
  ['-p provider', { session_id: 'r', argv: ['open', 'https://example.com', '-p', 'browserbase'] }, /global option/],
  ['open without url', { session_id: 'r', argv: ['open'] }, /usage: open <url>/],
  [
    'open with two urls',
    { session_id: 'r', argv: ['open', 'https://a.test/', 'https://b.test/'] },
    /usage: open <url>/,
  ],
  ['snapshot --depth', { session_id: 'r', argv: ['snapshot', '-d', '3'] }, /unsupported option "-d"/],
  ['click by CSS selector', { session_id: 'r', argv: ['click', 'button.send'] }, /not an element ref/],
  ['fill without text', { session_id: 'r', argv: ['fill', '@e1'] }, /usage: fill @ref <text>/],
  ['screenshot to a path', { session_id: 'r', argv: ['screenshot', '/tmp/x.png'] }, /not written to paths/],
  ['close with arguments', { session_id: 'r', argv: ['close', 'all'] }, /usage: close/],
  ['wait with junk', { session_id: 'r', argv: ['wait', 'soon'] }, /usage: wait/],
  ['press without key', { session_id: 'r', argv: ['press'] }, /usage: press <key>/],
];

for (const [label, args, stderr] of refusals) {
  rules(`refused (exit 2): ${label}`, async ({ h }) => {
    const result = await h.call('browser-shell', args);
    assert.is(result.isError, true);
    const reply = JSON.parse((result.content[0] as any).text);
    assert.equal(Object.keys(reply), ['session_id', 'exit_code', 'stdout', 'stderr']);
    assert.is(reply.exit_code, 2);
    assert.is(reply.stdout, '');
    assert.match(reply.stderr, stderr);
    assert.is(
      reply.session_id,
      typeof args.session_id === 'string' && /^[a-zA-Z0-9._-]{1,64}$/.test(args.session_id) ? args.session_id : '',
    );
  });
}

rules('nothing refused reached the extension or opened a session', async ({ h }) => {
  assert.is(h.browser.actions.length, 0);
  assert.is(h.routes.mcp.sessions.list().length, 0);
});

rules(
  'accepted: numbers and booleans become strings; timeout_sec up to 120; a bare host gets https://',
  async ({ h, timers }) => {
    const waiting = h.shell('acc', ['open', 'about:blank'], { timeout_sec: 120 });
    assert.is((await waiting).exit_code, 0);
    const w = h.shell('acc', ['wait', 0]);
    await eventually(() => timers.pending().length >= 1, 2000, 'timers');
    timers.increment(0);
    assert.equal((await w).data, { waited: 0 });
    const bare = await h.shell('acc', ['open', 'example.test']);
    assert.equal(bare.data, { url: 'https://example.test/', title: '' }, 'the URL was completed and allowed');
    assert.ok(h.browser.actions.some((a) => a.name === 'task_start' && a.params.url === 'https://example.test/'));
    const bool = await h.shell('acc', ['fill', '@e1', true]);
    assert.match(bool.stderr, /no snapshot yet/, 'the boolean was accepted as text');
    await h.shell('acc', ['close']);
  },
);

rules('before open: commands other than open and close say to open first', async ({ h }) => {
  for (const argv of [['snapshot', '-i'], ['click', '@e1'], ['screenshot'], ['wait', '--load']]) {
    const reply = await h.shell('fresh', argv);
    assert.is(reply.exit_code, 1);
    assert.match(reply.stderr, /run "open <url>" first/);
  }
  assert.equal((await h.shell('fresh', ['close'])).data, { closed: true });
});

rules.run();
