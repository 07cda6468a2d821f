import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createOfflinePlanner } from '../offline-planner/index.ts';
import { drive } from './offline-world.ts';
import { CAFE, TEA, cafeWorld, teaWorld } from './offline-pages.ts';

const planner = createOfflinePlanner();
const PRODUCTS = `${TEA}/products.html`;
const FORM = `${TEA}/form.html`;

const click = suite('offline planner: click by visible text');

for (const request of [
  'click "Add to cart"',
  "Click 'Add to cart' please",
  'press the Add to cart button',
  'tap on “Add to cart”',
]) {
  click(`"${request}" clicks the first matching button and reports the page after`, async () => {
    const run = await drive(planner, teaWorld(), request, { startUrl: PRODUCTS });
    assert.equal(run.toolCalls, [{ name: 'browser_click', arguments: { clickId: 3 } }]);
    assert.match(run.chat, /\[offline planner\] clicking "Add to cart" \(element 3\) \(the first of 5 matches\)/);
    assert.match(run.answer, /^Offline planner \(no LLM configured\): done\./);
    assert.match(run.answer, /- Clicked "Add to cart" \(element 3, cdp_mouse\)/);
    assert.match(run.answer, /Cart: 1 item\(s\)\. Last added: Yixing Clay Teapot/);
  });
}

click('an ordinal picks among equal matches', async () => {
  const run = await drive(planner, teaWorld(), 'click the third "Add to cart" button', { startUrl: PRODUCTS });
  assert.equal(run.toolCalls, [{ name: 'browser_click', arguments: { clickId: 5 } }]);
  const last = await drive(planner, teaWorld(), 'press the last Add to cart button', { startUrl: PRODUCTS });
  assert.equal(last.toolCalls, [{ name: 'browser_click', arguments: { clickId: 7 } }]);
});

for (const request of ['press the Next button', 'click Next', 'go to the next page']) {
  click(`"${request}" follows a link whose text is "Next »"`, async () => {
    const run = await drive(planner, cafeWorld(), request, { startUrl: `${CAFE}/menu` });
    assert.equal(run.toolCalls, [{ name: 'browser_click', arguments: { clickId: 3 } }]);
    assert.match(run.answer, /The page is now "Café Lumière: la carte \(2\)"/);
  });
}

click('open a URL, click a link, then summarise where it led', async () => {
  const run = await drive(planner, cafeWorld(), `open ${CAFE}/menu, click "Opening hours" and summarise the page`);
  assert.equal(run.toolCalls, [
    { name: 'browser_open', arguments: { url: `${CAFE}/menu` } },
    { name: 'browser_click', arguments: { clickId: 4 } },
  ]);
  assert.match(run.answer, /Summary of "Opening hours"/);
  assert.match(run.answer, /We are open every day from seven in the morning/);
});

click('no such element: says so and lists what can be clicked', async () => {
  const run = await drive(planner, teaWorld(), 'click "Checkout"', { startUrl: PRODUCTS });
  assert.equal(run.toolCalls, []);
  assert.match(run.answer, /I could not find an element matching "Checkout" on "Products"/);
  assert.match(run.answer, /"Add to cart"/);
});

click('a failing click is reported with its code', async () => {
  const run = await drive(planner, teaWorld(), 'click "Add to cart"', {
    startUrl: PRODUCTS,
    override: (name) =>
      name === 'browser_click'
        ? { ok: false, code: 'PLUGIN_TIMEOUT_EXEC', message: 'the plugin did not finish in time' }
        : undefined,
  });
  assert.match(run.answer, /the step browser_click failed with PLUGIN_TIMEOUT_EXEC: the plugin did not finish in time/);
});

click.run();

const type = suite('offline planner: type into a field and submit');

for (const [request, clickId, text] of [
  ['type hello into the name field and submit', 3, 'hello'],
  ['Type "Ada Lovelace" in the Name box, then submit the form', 3, 'Ada Lovelace'],
  ['fill in the email field with ada@example.com and press enter', 5, 'ada@example.com'],
  ["enter 'hi there' into the message field and submit", 9, 'hi there'],
  ['put hello in the "Your name" field and send it', 3, 'hello'],
] as const) {
  type(`"${request}"`, async () => {
    const run = await drive(planner, teaWorld(), request, { startUrl: FORM });
    assert.equal(run.toolCalls, [{ name: 'browser_type', arguments: { clickId, text, submit: true } }]);
    assert.match(run.answer, /and submitted/);
    assert.match(run.answer, /The page is now "Thank you"/);
    assert.ok(run.answer.includes(text), 'the result page shows what was typed');
  });
}

for (const request of ['search for "crème"', 'search the menu for crème', "search for 'crème'"]) {
  type(`"${request}" types into the search field and submits`, async () => {
    const run = await drive(planner, cafeWorld(), request, { startUrl: `${CAFE}/menu` });
    assert.equal(run.toolCalls, [{ name: 'browser_type', arguments: { clickId: 1, text: 'crème', submit: true } }]);
    assert.match(run.answer, /The page is now "Search results"/);
    assert.match(run.answer, /Café crème — 3,50 €/);
  });
}

type('search, then extract the results as a table', async () => {
  const run = await drive(planner, cafeWorld(), `open ${CAFE}/menu, search for café and list the prices`);
  assert.equal(
    run.toolCalls.map((c) => c.name),
    ['browser_open', 'browser_type'],
  );
  assert.ok(run.answer.includes('| Café crème | 3,50 € |\n| Café noir | 2,00 € |'), run.answer);
});

type('typing without submitting, then clicking the Send button, in that order', async () => {
  const run = await drive(planner, teaWorld(), 'type Ada into the name field, then click Send', { startUrl: FORM });
  assert.equal(run.toolCalls, [
    { name: 'browser_type', arguments: { clickId: 3, text: 'Ada' } },
    { name: 'browser_click', arguments: { clickId: 10 } },
  ]);
  assert.match(run.answer, /- Typed "Ada" into "Your name" \(element 3\)\n- Clicked "Send"/);
  assert.match(run.answer, /NameAda/);
});

type('a search request on a page without a search field: says so, types nothing', async () => {
  const run = await drive(planner, teaWorld(), 'search for "blue mug"', { startUrl: FORM });
  assert.equal(run.toolCalls, []);
  assert.match(run.answer, /I could not find a "search" field on "Contact form"/);
  assert.match(run.answer, /Text fields I can see: "Your name", "you@example.com", "message"/);
});

type('a page with a single text field takes the text whatever the field is called', async () => {
  const world = {
    pages: {
      'http://one.test/': {
        title: 'One',
        text: 'One field',
        elements: [{ clickId: 9, tag: 'input', type: 'text', name: 'q' }],
      },
    },
  };
  const run = await drive(planner, world, 'search for "blue mug"', { startUrl: 'http://one.test/' });
  assert.equal(run.toolCalls, [{ name: 'browser_type', arguments: { clickId: 9, text: 'blue mug', submit: true } }]);
});

type.run();
