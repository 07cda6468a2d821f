import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createOfflinePlanner } from '../offline-planner/index.ts';
import { drive } from './offline-world.ts';
import { CAFE, TEA, cafeWorld, teaPages, teaWorld } from './offline-pages.ts';

const planner = createOfflinePlanner();
const PREFIX = 'Offline planner (no LLM configured): ';
const ARTICLE = `${TEA}/article.html`;
const PRODUCTS = `${TEA}/products.html`;

const summary = suite('offline planner: open a URL and summarise it');

for (const request of [
  `open ${ARTICLE} and summarise it`,
  `Summarize ${ARTICLE}`,
  `What is ${ARTICLE} about?`,
  `Go to ${ARTICLE}, read it and give me the key points.`,
  `tl;dr of ${ARTICLE} please`,
  ARTICLE,
]) {
  summary(`"${request}": opens the page, then summarises it from its text`, async () => {
    const run = await drive(planner, teaWorld(), request);
    assert.equal(run.toolCalls, [{ name: 'browser_open', arguments: { url: ARTICLE } }]);
    assert.ok(run.answer.startsWith(PREFIX), run.answer);
    assert.ok(run.answer.includes('"A Short History of the Teapot"'));
    assert.ok(
      run.answer.includes(
        'The teapot is one of the most familiar objects in the kitchen, yet its story spans more than a thousand years and three continents.',
      ),
    );
    assert.ok(run.answer.includes('- The first true teapots appeared in the Yixing region during the Ming dynasty.'));
    assert.ok(run.answer.includes('Sections: Yixing clay; Porcelain in Europe; The everyday pot.'));
    assert.not.ok(run.answer.includes('By Ada Example'), 'the byline is not a sentence of the summary');
    assert.ok(run.steps.every((events) => events.filter((e) => e.type === 'delta').length >= 1));
    assert.ok(run.steps.at(-1)!.filter((e) => e.type === 'delta').length > 5, 'the answer is streamed in pieces');
  });
}

summary('summarises the page already open without any tool call', async () => {
  const run = await drive(planner, teaWorld(), 'summarise this page', { startUrl: ARTICLE });
  assert.equal(run.toolCalls, []);
  assert.match(run.answer, /^Offline planner \(no LLM configured\): Summary of "A Short History of the Teapot"/);
});

summary('reads the task tab first when a tab is open but no page context was given', async () => {
  const run = await drive(planner, teaWorld(), 'what is this page about?', { startUrl: ARTICLE, noInitialPage: true });
  assert.equal(run.toolCalls, [{ name: 'browser_read_page', arguments: {} }]);
  assert.match(run.answer, /Yixing region/);
});

summary('asks for a URL when no page is open', async () => {
  const run = await drive(planner, teaWorld(), 'summarise the page');
  assert.equal(run.toolCalls, []);
  assert.match(run.answer, /no page open for this task yet. Tell me which URL to open/);
});

summary('a path is resolved against the open page; without a page it asks for a full URL', async () => {
  const run = await drive(planner, teaWorld(), 'open /article.html and summarise it', { startUrl: `${TEA}/` });
  assert.equal(run.toolCalls, [{ name: 'browser_open', arguments: { url: ARTICLE } }]);
  const lost = await drive(planner, teaWorld(), 'open /article.html and summarise it');
  assert.equal(lost.toolCalls, []);
  assert.match(lost.answer, /"\/article.html" is a path, but no page with a known address is open/);
});

summary(
  'a page whose address is unknown (empty url) still gets a summary, and paths are refused, not thrown',
  async () => {
    const planner2 = createOfflinePlanner();
    const page = {
      tabId: 3,
      url: '',
      title: 'Article',
      text: 'Otters hold hands while sleeping so that they do not drift apart.',
      elements: [],
    };
    const ask = async (content: string) => {
      let text = '';
      for await (const e of planner2.streamChat({
        taskId: 't',
        messages: [{ role: 'user', content }],
        tools: [],
        context: { page },
      })) {
        assert.is.not(e.type, 'error');
        if (e.type === 'delta') text += e.content;
      }
      return text;
    };
    assert.match(
      await ask('summarise this page'),
      /^Offline planner \(no LLM configured\): Summary of "Article", taken from/,
    );
    assert.match(await ask('open /next.html'), /no page with a known address/);
  },
);

summary('reports a failed open honestly, with the code, and stops', async () => {
  const run = await drive(planner, teaWorld(), `open ${TEA}/missing.html and summarise it`);
  assert.equal(
    run.toolCalls.map((c) => c.name),
    ['browser_open'],
  );
  assert.match(
    run.answer,
    /^Offline planner \(no LLM configured\): the step browser_open failed with NAVIGATION_TIMEOUT: http:\/\/tea.test\/missing.html did not load/,
  );
  assert.match(run.answer, /did not retry/);
});

summary('says when the text was truncated or a part of page preparation is missing', async () => {
  const world = teaWorld();
  world.pages = { ...teaPages, [ARTICLE]: { ...teaPages[ARTICLE]!, truncated: true, missing: ['screenshot'] } };
  const run = await drive(planner, world, `summarise ${ARTICLE}`);
  assert.match(run.answer, /the page text was truncated/);
  assert.match(run.answer, /could not get: screenshot/);
});

summary('a page without text is described by its elements, not invented', async () => {
  const world = {
    pages: {
      'http://empty.test/': { title: 'Empty', text: '', elements: [{ clickId: 1, tag: 'button', text: 'Start' }] },
    },
  };
  const run = await drive(planner, world, 'summarise http://empty.test/');
  assert.match(run.answer, /no readable text. It shows these elements: Start/);
});

summary.run();

const extract = suite('offline planner: extract names and prices as a table');
const TEA_TABLE = [
  '| Name | Price |',
  '| --- | --- |',
  '| Yixing Clay Teapot | $48.00 |',
  '| Porcelain Tea Set | $120.50 |',
  '| Brown Betty Teapot | $32.99 |',
  '| Cast Iron Kettle | $75.00 |',
  '| Bamboo Tea Whisk | $9.95 |',
].join('\n');

for (const request of [
  `Extract the product names and prices from ${PRODUCTS} as a table`,
  `list the products with their prices on ${PRODUCTS}`,
  `open ${PRODUCTS} and tell me how much everything costs`,
  `What are the prices on ${PRODUCTS}?`,
  `scrape ${PRODUCTS} into a markdown table`,
]) {
  extract(`"${request}": a Markdown table of every product and price`, async () => {
    const run = await drive(planner, teaWorld(), request);
    assert.equal(run.toolCalls, [{ name: 'browser_open', arguments: { url: PRODUCTS } }]);
    assert.ok(run.answer.startsWith(PREFIX));
    assert.ok(run.answer.includes('Found 5 items with prices on "Products"'), run.answer);
    assert.ok(run.answer.includes(TEA_TABLE), run.answer);
  });
}

extract('euro prices in both notations on another site', async () => {
  const run = await drive(planner, cafeWorld(), `give me the menu items and prices from ${CAFE}/menu`);
  assert.ok(
    run.answer.includes(
      [
        '| Croissant au beurre | 2,40 € |',
        '| Pain au chocolat | 2,80 € |',
        '| Café crème | 3,50 € |',
        '| Tarte Tatin | EUR 6 |',
      ].join('\n'),
    ),
    run.answer,
  );
});

extract('the page already open, asked without a URL', async () => {
  const run = await drive(planner, teaWorld(), 'list the items and their prices', { startUrl: PRODUCTS });
  assert.equal(run.toolCalls, []);
  assert.ok(run.answer.includes(TEA_TABLE));
});

extract('prices found only in element texts', async () => {
  const world = {
    pages: {
      'http://mugs.test/': {
        title: 'Mugs',
        text: 'Our mugs',
        elements: [
          { clickId: 1, tag: 'a', text: 'Blue mug — $12.99', href: '/blue' },
          { clickId: 2, tag: 'a', text: 'Red mug — $10.50', href: '/red' },
          { clickId: 3, tag: 'a', text: 'About us', href: '/about' },
        ],
      },
    },
  };
  const run = await drive(planner, world, 'extract the prices from http://mugs.test/');
  assert.ok(run.answer.includes('| Blue mug | $12.99 |\n| Red mug | $10.50 |'), run.answer);
});

extract('no prices: says so and summarises instead', async () => {
  const run = await drive(planner, teaWorld(), `extract the prices from ${ARTICLE}`);
  assert.match(run.answer, /I found no names with prices on "A Short History of the Teapot"/);
  assert.match(run.answer, /Summary of/);
  assert.not.ok(run.answer.includes('| Name | Price |'));
});

extract.run();
