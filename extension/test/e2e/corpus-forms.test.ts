// MDN's form examples (unchanged, CC0) and navigation on real pages, driven through browser-shell
// over MCP (official SDK client, real runtime, real extension in a plain Chromium), each step
// checked against the page's real state: select (multiple and single) by label or value with
// input/change, radios, checkboxes, a toggle switch, a range by value and by keyboard, the
// browser's validation messages surfaced to the caller, a submit that navigates, HTTP 404 and a
// refused connection reported as such, a checkbox whose page refuses the click, controls hidden
// behind their labels, and SQLite's 1.58 MB page as a valid, cut snapshot.
import { createServer } from 'node:net';
import * as assert from 'uvu/assert';
import { mcpSuite, refWhere, until, type McpEnv } from './mcp-env.ts';

const s = mcpSuite('MDN forms and navigation through browser-shell in a real Chromium', 'corpus-forms.test', 300_000);

const MDN = '/mdn-forms';

s(
  'select several options of a <select multiple> by label and by value; input and change fire; bad options change nothing',
  async ({ env }) => {
    await env.ok('sel', ['open', `${env.corpus.url}${MDN}/select-example/select-multiple.html`]);
    const page = await env.pageOf('select-multiple.html');
    await page.evaluate(() => {
      const w = window as any;
      w.__events = [];
      for (const type of ['input', 'change'])
        document.querySelector('#pet-select')!.addEventListener(type, () => w.__events.push(type));
    });
    const snap = await env.ok('sel', ['snapshot', '-i']);
    const pets = refWhere(snap, (e) => e.role === 'listbox', 'the multiple select');
    const chosen = await env.ok('sel', ['select', pets, 'Dog', 'parrot']);
    assert.equal(
      [chosen.values, chosen.labels],
      [
        ['dog', 'parrot'],
        ['Dog', 'Parrot'],
      ],
    );
    const selected = () =>
      page.$eval('#pet-select', (el) => Array.from((el as HTMLSelectElement).selectedOptions, (o) => o.value));
    assert.equal(await selected(), ['dog', 'parrot']);
    assert.equal(await page.evaluate(() => (window as any).__events), ['input', 'change']);

    const disabled = await env.shell('sel', ['select', pets, 'Hamster']);
    assert.is(disabled.exit_code, 1);
    assert.match(disabled.stderr, /INVALID_TARGET: option "Hamster" of select#pet-select is disabled/);
    const unknown = await env.shell('sel', ['select', pets, 'Zebra']);
    assert.is(unknown.exit_code, 1);
    assert.match(unknown.stderr, /no option "Zebra" .*options: .*"Dog" \(value "dog"\)/);
    assert.not.match(unknown.stderr, /page changed/, 'a wrong option is not reported as a changed page');
    assert.equal(await selected(), ['dog', 'parrot'], 'refused selections change nothing');
    await env.ok('sel', ['close']);
  },
);

s('select one option of a single <select> by label or by value', async ({ env }) => {
  await env.ok('single', ['open', `${env.corpus.url}/site/form.html`]);
  const page = await env.pageOf('/site/form.html');
  const snap = await env.ok('single', ['snapshot', '-i']);
  const topic = refWhere(snap, (e) => e.role === 'combobox', 'the topic select');
  assert.equal((await env.ok('single', ['select', topic, 'Other'])).values, ['other']);
  assert.is(await page.$eval('#topic', (el) => (el as HTMLSelectElement).value), 'other');
  assert.equal((await env.ok('single', ['select', topic, 'order'])).labels, ['Order']);
  assert.is(await page.$eval('#topic', (el) => (el as HTMLSelectElement).value), 'order');
  const two = await env.shell('single', ['select', topic, 'order', 'other']);
  assert.match(two.stderr, /takes exactly one option/);
  await env.ok('single', ['close']);
});

s('radios, checkboxes and the toggle switch by ref; a radio cannot be unchecked', async ({ env }) => {
  await env.ok('radio', ['open', `${env.corpus.url}${MDN}/html-form-structure/fieldset-legend.html`]);
  const radios = await env.pageOf('fieldset-legend.html');
  let snap = await env.ok('radio', ['snapshot', '-i']);
  const medium = refWhere(snap, (e) => e.role === 'radio' && e.name === 'Medium', 'the Medium radio');
  const large = refWhere(snap, (e) => e.role === 'radio' && e.name === 'Large', 'the Large radio');
  assert.not.ok(
    Object.values(snap.refs).some((e: any) => e.tag === 'label'),
    'labels of listed controls are not listed twice',
  );
  assert.equal((await env.ok('radio', ['check', medium])).state, 'checked');
  assert.is(await radios.$eval('#size_2', (el) => (el as HTMLInputElement).checked), true);
  await env.ok('radio', ['check', large]);
  assert.equal(await radios.$$eval('input[name=size]', (els) => els.map((el) => (el as HTMLInputElement).checked)), [
    false,
    false,
    true,
  ]);
  const uncheck = await env.shell('radio', ['uncheck', large]);
  assert.is(uncheck.exit_code, 1);
  assert.match(uncheck.stderr, /cannot be unchecked/);
  assert.is(await radios.$eval('#size_3', (el) => (el as HTMLInputElement).checked), true);

  await env.ok('radio', ['open', `${env.corpus.url}${MDN}/html-form-structure/checkbox-label.html`]);
  const boxes = await env.pageOf('checkbox-label.html');
  snap = await env.ok('radio', ['snapshot', '-i']);
  const cherry = refWhere(snap, (e) => e.role === 'checkbox' && e.name === 'I like cherry', 'the cherry checkbox');
  assert.equal((await env.ok('radio', ['check', cherry])).changed, true);
  assert.is(await boxes.$eval('#taste_1', (el) => (el as HTMLInputElement).checked), true);
  assert.equal((await env.ok('radio', ['check', cherry])).changed, false, 'already checked: nothing clicked');
  assert.equal((await env.ok('radio', ['uncheck', cherry])).state, 'unchecked');
  assert.is(await boxes.$eval('#taste_1', (el) => (el as HTMLInputElement).checked), false);

  await env.ok('radio', ['open', `${env.corpus.url}${MDN}/toggle-switch-example/index.html`]);
  const toggle = await env.pageOf('toggle-switch-example');
  snap = await env.ok('radio', ['snapshot', '-i']);
  const power = refWhere(snap, (e) => e.role === 'checkbox', 'the power switch');
  await env.ok('radio', ['check', power]);
  assert.is(await toggle.$eval('#power', (el) => (el as HTMLInputElement).checked), true);
  await env.ok('radio', ['uncheck', power]);
  assert.is(await toggle.$eval('#power', (el) => (el as HTMLInputElement).checked), false);
  await env.ok('radio', ['close']);
});

s('a page that refuses the click (preventDefault) is reported, not claimed as checked', async ({ env }) => {
  await env.ok('indet', ['open', `${env.corpus.url}${MDN}/indeterminate-example/index.html`]);
  const page = await env.pageOf('indeterminate-example');
  const snap = await env.ok('indet', ['snapshot', '-i']);
  const overall = refWhere(
    snap,
    (e) => e.role === 'checkbox' && e.name === 'Enchantment table',
    'the overall checkbox',
  );
  const refused = await env.shell('indet', ['check', overall]);
  assert.is(refused.exit_code, 1);
  assert.match(refused.stderr, /did not check the control/);
  assert.is(await page.$eval('#enchantment', (el) => (el as HTMLInputElement).checked), false);
  const book = refWhere(snap, (e) => e.role === 'checkbox' && e.name === 'Book', 'Book');
  await env.ok('indet', ['check', book]);
  assert.is(
    await page.$eval('#enchantment', (el) => (el as HTMLInputElement).indeterminate),
    true,
    "the page's own handler ran",
  );
  await env.ok('indet', ['close']);
});

s('range: fill sets the value (input fires), arrow keys and Home move it', async ({ env }) => {
  await env.ok('range', ['open', `${env.corpus.url}${MDN}/range-example/index.html`]);
  const page = await env.pageOf('range-example');
  const snap = await env.ok('range', ['snapshot', '-i']);
  const price = refWhere(snap, (e) => e.role === 'slider', 'the price slider');
  assert.equal([snap.refs[price.slice(1)].min, snap.refs[price.slice(1)].max], ['50000', '500000']);
  await env.ok('range', ['fill', price, '300000']);
  assert.is(await page.$eval('#price', (el) => (el as HTMLInputElement).value), '300000');
  assert.is(await page.textContent('.price-output'), '300000', "the page's input handler ran");
  await env.ok('range', ['focus', price]);
  await env.ok('range', ['press', 'ArrowRight']);
  assert.is(await page.$eval('#price', (el) => (el as HTMLInputElement).value), '300100');
  await env.ok('range', ['press', 'Home']);
  assert.is(await page.textContent('.price-output'), '50000');
  await env.ok('range', ['close']);
});

s("the browser's validation messages come back to the caller; the page does not move", async ({ env }) => {
  const url = `${env.corpus.url}${MDN}/basic-input-examples/index.html`;
  await env.ok('valid', ['open', url]);
  const page = await env.pageOf('basic-input-examples');
  const snap = await env.ok('valid', ['snapshot', '-i']);
  const email = refWhere(snap, (e) => e.type === 'email', 'the email field');
  const site = refWhere(snap, (e) => e.type === 'url', 'the url field');
  const submit = refWhere(snap, (e) => e.role === 'button' && e.name === 'Submit', 'Submit');
  await env.ok('valid', ['fill', email, 'not-an-email']);
  await env.ok('valid', ['fill', site, 'nope']);
  const clicked = await env.ok('valid', ['click', submit]);
  assert.not.ok(clicked.navigated, 'an invalid form does not submit');
  const fields = clicked.invalidFields as Array<{ field: string; message: string }>;
  assert.equal(
    fields.map((f) => f.field),
    ['email input type:', 'url input type:'],
  );
  assert.match(fields[0]!.message, /@/);
  assert.ok(fields[1]!.message.length > 0);
  assert.match(clicked.warnings.join(' '), /the form was not submitted/);
  assert.is(page.url(), url);
  assert.is(await page.inputValue('#email'), 'not-an-email');
  // Enter in the field: the same refusal.
  await env.ok('valid', ['focus', email]);
  const pressed = await env.ok('valid', ['press', 'Enter']);
  assert.equal(pressed.invalidFields.length, 2);
  await env.ok('valid', ['close']);
});

s('a submit that navigates says so; wait --load returns the new document, never the old one', async ({ env }) => {
  await env.ok('nav', ['open', `${env.corpus.url}${MDN}/your-first-HTML-form/first-form-styled.html`]);
  const snap = await env.ok('nav', ['snapshot', '-i']);
  await env.ok('nav', ['fill', refWhere(snap, (e) => e.name === 'Name:', 'Name'), 'Ada']);
  await env.ok('nav', ['fill', refWhere(snap, (e) => e.name === 'E-mail:', 'E-mail'), 'ada@example.com']);
  await env.ok('nav', ['fill', refWhere(snap, (e) => e.name === 'Message:', 'Message'), 'Hello there']);
  const sent = await env.ok('nav', ['click', refWhere(snap, (e) => e.role === 'button', 'Send your message')]);
  assert.is(sent.navigated, true);
  assert.match(sent.url, /\/my-handling-form-page$/);
  const loaded = await env.ok('nav', ['wait', '--load']);
  assert.equal([loaded.title, loaded.url.endsWith('/my-handling-form-page')], ['Form received', true]);
  const page = await env.pageOf('/my-handling-form-page');
  assert.is(await page.textContent('#field-user_mail'), 'ada@example.com');
  const read = await env.ok('nav', ['snapshot']);
  assert.match(read.text, /Form received/);
  assert.not.match(read.text, /Send your message/, 'the old page is gone from the text');
  const stale = await env.shell('nav', ['click', '@e1']);
  assert.match(stale.stderr, /no snapshot yet/, 'refs of the old page were dropped');

  // A link to a slow page: the click returns once it commits; wait --load waits for its load.
  await env.ok('nav', ['open', `${env.corpus.url}/local/hidden-controls.html`]);
  const started = Date.now();
  const opened = await env.ok('nav', ['open', `${env.corpus.url}/slow?ms=1500`]);
  assert.ok(Date.now() - started >= 1_400, 'open waited for the slow page');
  assert.is(opened.title, 'Slow page', 'open reports the new title, not the previous page');
  await env.ok('nav', ['close']);
});

s('HTTP 404 is reported; a refused connection is NAVIGATION_FAILED with the net error name', async ({ env }) => {
  const missing = await env.ok('status', ['open', `${env.corpus.url}/status/404`]);
  assert.is(missing.httpStatus, 404);
  assert.match(missing.warnings.join(' '), /HTTP 404 Not Found/);
  const broken = await env.ok('status', ['open', `${env.corpus.url}/status/503`]);
  assert.is(broken.httpStatus, 503);
  // A port nobody listens on.
  const port = await new Promise<number>((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
  const refused = await env.shell('status', ['open', `http://127.0.0.1:${port}/`]);
  assert.is(refused.exit_code, 1);
  assert.match(refused.stderr, /^NAVIGATION_FAILED: .*net::ERR_CONNECTION_REFUSED/);
  assert.not.match(refused.stderr, /Frame with ID/);
  await env.ok('status', ['close']);

  // batch_extract_pages: the 404 and the refused URL are failed items, the real page succeeds.
  const urls = [
    `${env.corpus.url}${MDN}/html-form-structure/fieldset-legend.html`,
    `${env.corpus.url}/status/404`,
    `http://127.0.0.1:${port}/`,
  ];
  const result = await env.client.callTool(
    {
      name: 'run_task_template',
      arguments: { templateId: 'batch_extract_pages', inputs: { urls }, options: { mode: 'sync' } },
    },
    undefined,
    { timeout: 90_000 },
  );
  const run = result.structuredContent as any;
  assert.equal(run.result.summary, { total: 3, succeeded: 1, failed: 2, skipped: 0 }, JSON.stringify(run.result));
  assert.match(run.result.items[0].text, /Fruit juice size/);
  assert.equal(
    [run.result.items[1].error.cause, run.result.items[2].error.cause],
    ['NAVIGATION_FAILED', 'NAVIGATION_FAILED'],
  );
  assert.match(run.result.items[1].error.message, /HTTP 404/);
  assert.match(run.result.items[2].error.message, /ERR_CONNECTION_REFUSED/);
});

s(
  'controls hidden behind their labels and a custom switch are listed and operated; hover and focus are real',
  async ({ env }) => {
    await env.ok('hidden', ['open', `${env.corpus.url}/local/hidden-controls.html`]);
    const page = await env.pageOf('hidden-controls.html');
    const snap = await env.ok('hidden', ['snapshot', '-i']);
    const newsletter = refWhere(
      snap,
      (e) => e.role === 'checkbox' && /newsletter/.test(e.name),
      'the clipped checkbox',
    );
    // The accessibility tree has no display:none checkbox: its label is what a person operates, and is listed (issue 21).
    const terms = refWhere(
      snap,
      (e) => (e.role === 'checkbox' || e.tag === 'label') && /terms/.test(e.name),
      'the display:none checkbox or its label',
    );
    const pro = refWhere(snap, (e) => e.role === 'radio' && e.name === 'Pro', 'the clipped radio');
    const dark = refWhere(snap, (e) => e.role === 'switch' && e.name === 'Dark mode', 'the ARIA switch');
    // The DOM heuristic marks it (`hidden`); the accessibility tree has no geometry to say so.
    if (snap.source === 'dom') assert.is(snap.refs[newsletter.slice(1)].hidden, 'operated through its label');
    for (const ref of [newsletter, terms, pro, dark]) await env.ok('hidden', ['check', ref]);
    assert.equal(
      await page.evaluate(() => [
        (document.getElementById('newsletter') as HTMLInputElement).checked,
        (document.getElementById('terms') as HTMLInputElement).checked,
        (document.getElementById('plan-pro') as HTMLInputElement).checked,
        document.getElementById('dark')!.getAttribute('aria-checked'),
      ]),
      [true, true, true, 'true'],
    );
    await env.ok('hidden', ['uncheck', dark]);
    assert.is(await page.getAttribute('#dark', 'aria-checked'), 'false');
    await env.ok('hidden', ['hover', refWhere(snap, (e) => e.name === 'Hover me', 'Hover me')]);
    assert.is(await page.textContent('#hovered'), 'hovered');
    const focused = await env.ok('hidden', ['focus', refWhere(snap, (e) => e.placeholder === 'Focus me', 'Focus me')]);
    assert.ok(focused.focused);
    assert.is(await page.getAttribute('#focus-me', 'data-focused'), 'yes');
    await env.ok('hidden', ['press', 'Control+A']);
    await env.ok('hidden', ['close']);
  },
);

s("SQLite's 1.58 MB page: the snapshot is valid JSON under 64 KB that says what was cut", async ({ env }) => {
  const opened = await env.ok('big', ['open', `${env.corpus.url}/sqlite-doc/lang_select.html`]);
  assert.match(opened.title, /SELECT/);
  const reply = await env.shell('big', ['snapshot']);
  assert.is(reply.exit_code, 0, reply.stderr);
  assert.ok(Buffer.byteLength(reply.stdout) <= 64 * 1024, `${Buffer.byteLength(reply.stdout)} bytes`);
  const data = JSON.parse(reply.stdout);
  assert.match(data.text, /SELECT/);
  // Its links (about 160 visible ones) fit; its text (the whole SELECT reference) does not, and the reply says so.
  assert.is(data.truncated.elements, undefined, JSON.stringify(data.truncated));
  assert.ok(Object.keys(data.refs).length > 100);
  assert.ok(data.truncated.text.totalChars > 20_000, JSON.stringify(data.truncated));
  assert.is(data.truncated.text.shownChars, data.text.length);
  // A link to a page not vendored: the click navigates, and the new document is a 404.
  const snap = await env.ok('big', ['snapshot', '-i']);
  const link = refWhere(
    snap,
    (e) => e.role === 'link' && /lang_expr\.html/.test(e.href ?? ''),
    'a link to lang_expr.html',
  );
  const clicked = await env.ok('big', ['click', link]);
  assert.is(clicked.navigated, true);
  const loaded = await env.ok('big', ['wait', '--load']);
  assert.is(loaded.httpStatus, 404);
  assert.match(loaded.url, /lang_expr\.html/);
  await until(async () => (await env.pageOf('lang_expr.html')).url().includes('lang_expr'), 'the 404 page');
  await env.ok('big', ['close']);
});

s.run();
