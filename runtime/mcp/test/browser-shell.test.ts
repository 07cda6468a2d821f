// browser-shell (seed 004) through the MCP SDK client: the open -> snapshot -i -> fill/click/
// press/wait -> screenshot -> close loop on fixtures/site's form, per-session task tabs, refs
// and their generations, output format, truncation and redaction, the URL policy, idle sessions.
// The input rules are in browser-shell-rules.test.ts.
import { createSystemClock } from '../../clock/index.ts';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually } from '../../test/util.ts';
import type { FakePage } from './fake-browser.ts';
import { startMcp, testPolicy } from './mcp-harness.ts';
import { setup, teardown, type Ctx } from './shell-setup.ts';

const flow = suite<Ctx>('browser-shell flow');
flow.before((ctx) => setup(ctx));
flow.after((ctx) => teardown(ctx));

flow(
  'open -> snapshot -i -> fill -> click -> snapshot on the result page -> screenshot -> close',
  async ({ h, site }) => {
    const opened = await h.shell('u1', ['open', `${site.url}/form.html`]);
    assert.equal(Object.keys(opened).sort(), ['data', 'exit_code', 'isError', 'session_id', 'stderr', 'stdout']);
    assert.equal([opened.session_id, opened.exit_code, opened.stderr, opened.isError], ['u1', 0, '', false]);
    assert.ok(opened.stdout.endsWith('\n'));
    assert.equal(opened.data, { url: `${site.url}/form.html`, title: 'Contact form' });

    const snap = await h.shell('u1', ['snapshot', '-i']);
    assert.is(snap.exit_code, 0);
    const refs = snap.data.refs as Record<string, any>;
    const refOf = (pred: (r: any) => boolean) => `@${Object.keys(refs).find((k) => pred(refs[k]))}`;
    assert.match(snap.data.snapshot, /- textbox "Your name" \[ref=e\d+\]/);
    assert.match(snap.data.snapshot, /- combobox "topic" \[ref=e\d+\]/);
    assert.match(snap.data.snapshot, /- button "Send" \[ref=e\d+\]/);
    const name = refOf((r) => r.placeholder === 'Your name');
    const email = refOf((r) => r.type === 'email');
    const topic = refOf((r) => r.role === 'combobox');
    const send = refOf((r) => r.name === 'Send');

    assert.equal((await h.shell('u1', ['fill', name, 'Ada Lovelace'])).data, { filled: name });
    assert.equal(
      (await h.shell('u1', ['type', email.slice(1), 'ada@']))?.data,
      { typed: email },
      'a ref without @ works too',
    );
    assert.equal((await h.shell('u1', ['type', email, 'example.com'])).data, { typed: email });
    assert.equal((await h.shell('u1', ['select', topic, 'other'])).data, {
      selected: topic,
      values: ['other'],
      labels: ['other'],
    });
    assert.equal(
      h.browser.typed.map((t) => t.text),
      ['Ada Lovelace', 'ada@', 'ada@example.com'],
      'type appends to what the field holds',
    );
    assert.equal(
      h.browser.inputs.map((i) => [i.name, i.detail]),
      [['browser_select', ['other']]],
      'select is browser_select, not typing',
    );

    const clicked = await h.shell('u1', ['click', send]);
    // The click says it navigated, and where: the old refs go with the old page.
    assert.equal(clicked.data.clicked, send);
    assert.is(clicked.data.navigated, true);
    assert.match(clicked.data.url, /form-result\.html\?name=Ada%20Lovelace/);
    const loaded = await h.shell('u1', ['wait', '--load']);
    assert.match(loaded.data.url, /form-result\.html\?name=Ada%20Lovelace&email=ada%40example\.com/);

    const after = await h.shell('u1', ['snapshot']);
    assert.is(after.data.title, 'Thank you');
    assert.match(after.data.text, /Message received/);
    const stale = await h.shell('u1', ['click', send]);
    assert.is(stale.exit_code, 1);
    assert.match(stale.stderr, /older snapshot|no snapshot yet/);

    const shot = await h.shell('u1', ['screenshot', '--full']);
    assert.is(shot.exit_code, 0);
    assert.match(shot.data.artifactId, /^art-/);
    assert.is(shot.data.mimeType, 'image/png');
    const png = await h.ok('get_artifact', { artifactId: shot.data.artifactId });
    assert.is(Buffer.from(png.data, 'base64').subarray(1, 4).toString(), 'PNG');
    assert.is(h.browser.actions.find((a) => a.name === 'browser_screenshot')!.params.fullPage, true);

    const tabsBefore = h.browser.tabs.size;
    assert.equal((await h.shell('u1', ['close'])).data, { closed: true });
    assert.is(h.browser.tabs.size, tabsBefore - 1);
    assert.is(h.routes.mcp.sessions.get('u1'), undefined);
    const afterClose = await h.shell('u1', ['snapshot', '-i']);
    assert.is(afterClose.exit_code, 1);
    assert.match(afterClose.stderr, /open <url>/);
  },
);

flow('press sends any key or chord to the focused element; Enter in the field filled submits', async ({ h, site }) => {
  await h.shell('s-press', ['open', `${site.url}/form.html`]);
  const snap = await h.shell('s-press', ['snapshot', '-i']);
  const email = Object.keys(snap.data.refs).find((k) => snap.data.refs[k].type === 'email')!;
  await h.shell('s-press', ['fill', `@${email}`, 'grace@example.com']);
  for (const key of ['Tab', 'Shift+Tab', 'Control+A', 'Escape', 'ArrowDown']) {
    const reply = await h.shell('s-press', ['press', key]);
    assert.equal([reply.exit_code, reply.data.pressed], [0, key], key);
  }
  const enter = await h.shell('s-press', ['press', 'Enter']);
  assert.equal([enter.data.pressed, enter.data.navigated], ['Enter', true]);
  assert.equal(
    h.browser.inputs.filter((i) => i.name === 'browser_press').map((i) => i.detail),
    ['Tab', 'Shift+Tab', 'Control+A', 'Escape', 'ArrowDown', 'Enter'],
  );
  assert.match((await h.shell('s-press', ['wait', '--load'])).data.url, /email=grace%40example\.com/);
  await h.shell('s-press', ['close']);
});

flow('each session_id has its own task tab; commands of other sessions do not touch it', async ({ h, site }) => {
  await h.shell('alpha', ['open', `${site.url}/index.html`]);
  await h.shell('beta', ['open', `${site.url}/form.html`]);
  const alpha = h.routes.mcp.sessions.get('alpha')!.main!;
  const beta = h.routes.mcp.sessions.get('beta')!.main!;
  assert.is.not(alpha.taskId, beta.taskId);
  assert.is.not(alpha.tabId, beta.tabId);
  assert.match(alpha.taskId, /^[0-9A-HJKMNP-TV-Z]{26}$/);
  assert.match((await h.shell('alpha', ['snapshot', '-i'])).data.snapshot, /Article: the history of the teapot/);
  assert.match((await h.shell('beta', ['snapshot', '-i'])).data.snapshot, /Send/);
  await h.shell('alpha', ['close']);
  assert.ok(h.browser.tabs.has(beta.tabId!));
  await h.shell('beta', ['close']);
});

flow(
  "a ref from the latest snapshot on a page that changed underneath gets the extension's INVALID_TARGET",
  async ({ h, site }) => {
    await h.shell('s-stale', ['open', `${site.url}/index.html`]);
    const snap = await h.shell('s-stale', ['snapshot', '-i']);
    const link = Object.keys(snap.data.refs).find((k) => snap.data.refs[k].name.startsWith('Contact form'))!;
    const other = Object.keys(snap.data.refs).find((k) => k !== link)!;
    const clicked = await h.shell('s-stale', ['click', `@${link}`]);
    assert.is(clicked.data.navigated, true, 'the click says it navigated');
    const gone = await h.shell('s-stale', ['click', `@${other}`]);
    assert.is(gone.exit_code, 1);
    assert.match(gone.stderr, /no snapshot yet: run "snapshot -i"/, 'the shell dropped the old refs itself');
    // The page changes underneath without the shell knowing (a script, a reload): the extension's check.
    const fresh = await h.shell('s-stale', ['snapshot', '-i']);
    const any = Object.keys(fresh.data.refs)[0]!;
    const tab = h.browser.tabs.get(h.routes.mcp.sessions.get('s-stale')!.main!.tabId!)!;
    tab.generation = { firstId: tab.nextId, lastId: tab.nextId };
    const stale = await h.shell('s-stale', ['click', `@${any}`]);
    assert.is(stale.exit_code, 1);
    assert.match(stale.stderr, /^INVALID_TARGET: .*run "snapshot -i" again/);
    const unknown = await h.shell('s-stale', ['click', '@e9999']);
    assert.match(unknown.stderr, /not in the latest snapshot/);
    await h.shell('s-stale', ['close']);
  },
);

flow('wait <ms> and timeout_sec on injected timers: done in time, or exit 124', async ({ h, site, timers }) => {
  await h.shell('s-wait', ['open', `${site.url}/index.html`]);
  const quick = h.shell('s-wait', ['wait', 50]);
  await eventually(() => timers.pending().length >= 2, 2000, 'wait + deadline timers');
  timers.increment(50);
  const done = await quick;
  assert.equal([done.exit_code, done.data], [0, { waited: 50 }]);
  const slow = h.shell('s-wait', ['wait', '5000'], { timeout_sec: 1 });
  await eventually(() => timers.pending().length >= 2, 2000, 'wait + deadline timers');
  timers.increment(1000);
  const timedOut = await slow;
  assert.equal([timedOut.exit_code, timedOut.isError, timedOut.stdout], [124, true, '']);
  assert.match(timedOut.stderr, /timed out after 1 s/);
  const text = h.shell('s-wait', ['wait', '--text', 'Mimo fixture site']);
  assert.equal((await text).data, { found: true });
  await h.shell('s-wait', ['close']);
});

flow(
  'P1: select works on <select> only; dblclick/hover/focus/check/uncheck run as catalog actions',
  async ({ h, site }) => {
    await h.shell('s-p1', ['open', `${site.url}/form.html`]);
    const snap = await h.shell('s-p1', ['snapshot', '-i']);
    const name = Object.keys(snap.data.refs).find((k) => snap.data.refs[k].placeholder === 'Your name')!;
    const wrong = await h.shell('s-p1', ['select', `@${name}`, 'x']);
    assert.match(wrong.stderr, /select works on <select> elements/);
    const expected: Record<string, [string, string]> = {
      dblclick: ['dblclicked', 'browser_dblclick'],
      hover: ['hovered', 'browser_hover'],
      focus: ['focused', 'browser_focus'],
      check: ['checked', 'browser_check'],
      uncheck: ['unchecked', 'browser_check'],
    };
    for (const [sub, [key, action]] of Object.entries(expected)) {
      const reply = await h.shell('s-p1', [sub, `@${name}`]);
      assert.is(reply.exit_code, 0, `${sub}: ${reply.stderr}`);
      assert.is(reply.data[key], `@${name}`, sub);
      assert.is(h.browser.inputs.at(-1)!.name, action, sub);
    }
    assert.equal(
      h.browser.inputs.filter((i) => i.name === 'browser_check').map((i) => i.detail),
      [true, false],
    );
    await h.shell('s-p1', ['close']);
  },
);

const output = suite<Ctx>('browser-shell output');
output.before((ctx) => {
  const huge: FakePage = {
    title: 'Huge',
    text: 'x'.repeat(50_000),
    elements: [
      ...Array.from({ length: 400 }, (_, i) => ({ tag: 'button', text: `Button number ${i} `.padEnd(120, 'z') })),
      { tag: 'input', type: 'password', name: 'pw', value: 'should-not-leak' },
      { tag: 'input', type: 'text', name: 'api_token', value: 'visible-value' },
    ],
  };
  return setup(ctx, {
    'https://huge.test/': huge,
    'https://pw.test/': { title: 'PW', text: '', elements: huge.elements!.slice(-2) },
  });
});
output.after((ctx) => teardown(ctx));

output(
  'stdout is data-only JSON, always valid under 64 KB; a cut snapshot keeps the text and says what was cut',
  async ({ h }) => {
    await h.shell('big', ['open', 'https://huge.test/']);
    const result = await h.call('browser-shell', { session_id: 'big', argv: ['snapshot', '-i'] });
    const reply = JSON.parse((result.content[0] as any).text);
    assert.equal(Object.keys(reply), ['session_id', 'exit_code', 'stdout', 'stderr']);
    assert.equal(result.structuredContent, reply);
    assert.is(reply.exit_code, 0);
    assert.ok(Buffer.byteLength(reply.stdout) <= 64 * 1024);
    const interactive = JSON.parse(reply.stdout);
    assert.is(interactive.truncated.elements.total, 402);
    assert.ok(interactive.truncated.elements.shown <= 300);
    assert.is(Object.keys(interactive.refs).length, interactive.truncated.elements.shown);
    assert.not.ok(JSON.stringify(reply).includes('"argv"'));
    // With the page text: the text (8000 chars) stays whole, elements give way to fit 64 KB.
    const full = await h.call('browser-shell', { session_id: 'big', argv: ['snapshot'] });
    const fullReply = JSON.parse((full.content[0] as any).text);
    assert.ok(Buffer.byteLength(fullReply.stdout) <= 64 * 1024);
    const withText = JSON.parse(fullReply.stdout);
    assert.is(withText.text.length, 8000);
    assert.equal(withText.truncated.text, {
      shownChars: 8000,
      totalChars: 50_000,
      reason: 'at most 8000 characters of page text',
    });
    assert.ok(
      withText.truncated.elements.shown < 300,
      `elements cut for the limit: ${withText.truncated.elements.shown}`,
    );
    assert.match(withText.truncated.elements.reason, /64 KB/);
    await h.shell('big', ['close']);
  },
);

output('password values never appear; token-like keys are redacted', async ({ h }) => {
  await h.shell('pw', ['open', 'https://pw.test/']);
  const snap = await h.shell('pw', ['snapshot', '-i']);
  assert.not.ok(snap.stdout.includes('should-not-leak'));
  assert.match(snap.stdout, /visible-value/);
  await h.shell('pw', ['close']);
});

const policy = suite<Ctx>('browser-shell URL policy');
policy.before((ctx) => setup(ctx, {}, testPolicy({})));
policy.after((ctx) => teardown(ctx));

policy(
  'open goes through the URL policy: the default blocks loopback, private and non-http(s)',
  async ({ h, site }) => {
    for (const url of [
      `${site.url}/form.html`,
      'http://localhost:9222/json',
      'file:///etc/passwd',
      'https://private.test/',
      'http://[::ffff:127.0.0.1]/',
      'javascript:alert(1)',
      'http://169.254.169.254/',
    ]) {
      const reply = await h.shell('pol', ['open', url]);
      assert.is(reply.exit_code, 1, url);
      assert.match(reply.stderr, /^URL_BLOCKED: /, url);
    }
    assert.is(h.browser.actions.filter((a) => a.name === 'task_start').length, 0);
  },
);

const sessions = suite('browser-shell sessions');

sessions(
  'idle sessions lose their tab after 30 min without use (swept on the next request); busy ones stay',
  async () => {
    const skew = { ms: 0 };
    const h = await startMcp({
      pages: { 'https://a.test/': { title: 'A', text: 'a' } },
      clock: { ...createSystemClock(), now: () => Date.now() + skew.ms },
    });
    try {
      await h.shell('idle', ['open', 'https://a.test/']);
      skew.ms = 29 * 60 * 1000;
      await h.shell('kept', ['open', 'https://a.test/']);
      assert.is(h.browser.tabs.size, 2);
      skew.ms = 31 * 60 * 1000;
      await h.client.listTools();
      await eventually(() => h.browser.tabs.size === 1, 5000, 'the idle tab to close');
      assert.is(h.routes.mcp.sessions.get('idle'), undefined);
      assert.ok(h.routes.mcp.sessions.get('kept'));
      await eventually(
        () => h.runtime.logs.some((l) => l.event === 'mcp_sessions_idle_closed'),
        5000,
        'the sweep to be logged',
      );
      const again = await h.shell('idle', ['snapshot', '-i']);
      assert.match(again.stderr, /open <url>/);
    } finally {
      await h.close();
    }
  },
);

sessions('no extension connected: PLUGIN_OFFLINE on stderr, exit 1', async () => {
  const h = await startMcp({ plugin: false });
  try {
    const reply = await h.shell('off', ['open', 'https://a.test/']);
    assert.equal([reply.exit_code, reply.isError], [1, true]);
    assert.match(reply.stderr, /^PLUGIN_OFFLINE: /);
  } finally {
    await h.close();
  }
});

const consequential = suite<Ctx>('browser-shell consequential steps (issue 23)');
consequential.before((ctx) => setup(ctx, {}, testPolicy(), 'refuse'));
consequential.after((ctx) => teardown(ctx));

consequential(
  'by default the contact form\'s "Send" is refused with CONFIRMATION_REQUIRED and never clicked',
  async ({ h, site }) => {
    await h.shell('c1', ['open', `${site.url}/form.html`]);
    const snap = await h.shell('c1', ['snapshot', '-i']);
    const refs = snap.data.refs as Record<string, any>;
    const send = `@${Object.keys(refs).find((k) => refs[k].name === 'Send')}`;
    const clicked = await h.shell('c1', ['click', send]);
    assert.is(clicked.exit_code, 1);
    assert.match(clicked.stderr + JSON.stringify(clicked.data ?? {}), /CONFIRMATION_REQUIRED/);
    assert.is(h.browser.clicks.length, 0, 'nothing was clicked');
  },
);

flow.run();
consequential.run();
sessions.run();
output.run();
policy.run();
