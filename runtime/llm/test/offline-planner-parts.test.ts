import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseRequest } from '../offline-planner/request-intent.ts';
import { extractPriceRows, findPrices, toMarkdownTable } from '../offline-planner/price-table.ts';
import { findClickTarget, findNewTabLink, findTextField } from '../offline-planner/element-match.ts';
import { chooseOtherTab } from '../offline-planner/tab-choice.ts';
import { streamPieces } from '../offline-planner/stream-text.ts';
import { readConversation } from '../offline-planner/conversation.ts';
import { createOfflinePlanner } from '../offline-planner/index.ts';
import type { PageElement } from '../llm-types.ts';

const intent = suite('offline planner: reading requests');

intent('URLs: full, bare domains, localhost, quoted; not e-mail addresses', () => {
  const url = (t: string) => {
    const r = parseRequest(t);
    return r.kind === 'browser' ? r.url : undefined;
  };
  assert.is(url('open https://example.com/a?b=1.'), 'https://example.com/a?b=1');
  assert.is(url('summarise example.org/news please'), 'https://example.org/news');
  assert.is(url('visit localhost:3000/form.html'), 'http://localhost:3000/form.html');
  assert.is(url('open "http://127.0.0.1:8080/x"'), 'http://127.0.0.1:8080/x');
  const mail = parseRequest('summarise the page for bob@example.com');
  assert.is(mail.kind, 'browser');
  assert.is(url('summarise the page for bob@example.com'), undefined);
});

intent('quoted text does not steer the verbs: clicking a button called "Search prices"', () => {
  assert.equal(parseRequest('click "Search prices"'), {
    kind: 'browser',
    actions: [{ kind: 'click', target: 'Search prices' }],
    answer: 'report',
  });
});

intent('actions keep the order of the request', () => {
  const r = parseRequest('type Ada into the name field, click Send and then summarise the page');
  assert.equal(r, {
    kind: 'browser',
    actions: [
      { kind: 'type', text: 'Ada', field: 'name', submit: false },
      { kind: 'click', target: 'Send' },
    ],
    answer: 'summary',
  });
});

intent('chat, help, thanks and the unknown are told apart', () => {
  assert.equal(parseRequest('hello'), { kind: 'chat', topic: 'greeting' });
  assert.equal(parseRequest('what can you do?'), { kind: 'chat', topic: 'help' });
  assert.equal(parseRequest('thank you!'), { kind: 'chat', topic: 'thanks' });
  assert.equal(parseRequest('write me a poem about autumn leaves'), { kind: 'unknown' });
  assert.equal(parseRequest('hello, please open example.com').kind, 'browser');
});

intent.run();

const prices = suite('offline planner: prices and tables');

prices('price notations', () => {
  const found = (t: string) => findPrices(t).map((p) => p.price);
  assert.equal(found('Mug $12.99, jug 12,99 €, pot EUR 5, cup £3, kettle 1,299.00 USD, tray ¥1200'), [
    '$12.99',
    '12,99 €',
    'EUR 5',
    '£3',
    '1,299.00 USD',
    '¥1200',
  ]);
  assert.equal(found('Item 2 $5'), ['$5'], 'a bare number before a priced one is not a price');
  assert.equal(found('In 2024 we sold 300 pots.'), []);
});

const els = (labels: string[]): PageElement[] => labels.map((text, i) => ({ clickId: i + 1, tag: 'button', text }));

prices('names next to prices, whatever the whitespace the text extraction left', () => {
  const expected = [
    { name: 'Blue Mug', price: '$12.99' },
    { name: 'Red Jug', price: '$7.50' },
  ];
  for (const text of [
    'Shop\nBlue Mug$12.99Buy now\nRed Jug$7.50Buy now',
    'Shop\nName\tPrice\nBlue Mug\t$12.99\tBuy now\nRed Jug\t$7.50\tBuy now',
    'Shop Name Price Blue Mug $12.99 Buy now Red Jug $7.50 Buy now',
    '| Name | Price |\n| Blue Mug | $12.99 |\n| Red Jug | $7.50 |',
    'Blue Mug: only $12.99\nRed Jug - $7.50',
  ]) {
    assert.equal(extractPriceRows({ tabId: 1, url: 'u', text, elements: els(['Buy now', 'Buy now']) }), expected, text);
  }
});

prices('Markdown table escapes pipes', () => {
  assert.is(toMarkdownTable([{ name: 'A | B', price: '$1' }]), '| Name | Price |\n| --- | --- |\n| A \\| B | $1 |');
});

prices.run();

const match = suite('offline planner: matching elements');

match('exact text beats partial, document order breaks ties, ordinals count ties', () => {
  const elements = els(['Add to cart', 'Cart', 'Add to cart', 'Go to cart page']);
  assert.is(findClickTarget(elements, 'cart')!.element.clickId, 2);
  assert.equal(findClickTarget(elements, 'add to cart'), { element: elements[0]!, ties: 2 });
  assert.is(findClickTarget(elements, 'Add to cart', 2)!.element.clickId, 3);
  assert.is(findClickTarget(elements, 'Add to cart', 3), undefined);
  assert.is(findClickTarget(elements, 'Checkout'), undefined);
});

match('text fields by label, name, placeholder, type; never a button', () => {
  const fields: PageElement[] = [
    { clickId: 1, tag: 'input', type: 'text', name: 'fullname', text: 'Your name' },
    { clickId: 2, tag: 'input', type: 'email', name: 'contact' },
    { clickId: 3, tag: 'input', type: 'search', placeholder: 'Find products' },
    { clickId: 4, tag: 'input', type: 'submit', value: 'Search' },
  ];
  assert.is(findTextField(fields, 'name')!.element.clickId, 1);
  assert.is(findTextField(fields, 'email')!.element.clickId, 2);
  assert.is(findTextField(fields, 'search')!.element.clickId, 3);
  assert.is(findTextField(fields, undefined)!.element.clickId, 1);
  assert.is(findTextField(fields, 'phone'), undefined);
});

match('new-tab links: only target=_blank, best match for the hint', () => {
  const links: PageElement[] = [
    { clickId: 1, tag: 'a', text: 'Docs', href: '/docs', target: '_blank' },
    { clickId: 2, tag: 'a', text: 'Article', href: '/article' },
    { clickId: 3, tag: 'a', text: 'The article', href: '/article', target: '_blank' },
  ];
  assert.is(findNewTabLink(links, 'article')!.element.clickId, 3);
  assert.is(findNewTabLink(links, undefined)!.element.clickId, 1);
  assert.is(findNewTabLink(links.slice(1, 2), undefined), undefined);
});

match.run();

const tabs = suite('offline planner: choosing the tab to switch to');

tabs('the task group only, the clicked URL first, else the newest', () => {
  const snapshot = {
    tabs: [
      { tabId: 1, windowId: 1, url: 'https://mail.example/', active: true },
      { tabId: 10, windowId: 1, url: 'http://a.test/', active: false, groupId: 4 },
      { tabId: 12, windowId: 1, url: 'http://a.test/x', active: false, groupId: 4 },
      { tabId: 11, windowId: 1, url: 'http://a.test/article', active: false, groupId: 4 },
      { tabId: 99, windowId: 1, url: 'http://other.test/', active: false, groupId: 8 },
    ],
    activeTabId: 1,
    taskTabId: 10,
  };
  assert.is(chooseOtherTab(snapshot, 10)!.tabId, 12);
  assert.is(chooseOtherTab(snapshot, 10, 'http://a.test/article#top')!.tabId, 11);
  assert.is(
    chooseOtherTab({ ...snapshot, tabs: snapshot.tabs.slice(0, 2) }, 10),
    undefined,
    "never the user's own tab",
  );
  assert.is(chooseOtherTab(undefined, 10), undefined);
});

tabs.run();

const misc = suite('offline planner: conversation reading and streaming');

misc('the request is the last user message; steps are the tool results after it', () => {
  const conversation = readConversation([
    { role: 'user', content: 'first' },
    { role: 'assistant', content: '', toolCalls: [{ toolCallId: 'a', name: 'browser_open', arguments: { url: 'x' } }] },
    {
      role: 'tool',
      toolCallId: 'a',
      name: 'browser_open',
      content: '{"toolCallId":"a","name":"browser_open","ok":true,"result":{}}',
    },
    { role: 'user', content: 'second' },
    {
      role: 'assistant',
      content: '',
      toolCalls: [{ toolCallId: 'b', name: 'browser_click', arguments: { clickId: 4 } }],
    },
    {
      role: 'tool',
      toolCallId: 'b',
      name: 'browser_click',
      content:
        '{"toolCallId":"b","name":"browser_click","ok":false,"error":{"code":"INVALID_TARGET","message":"gone"}}',
    },
    { role: 'system', content: 'Current browser state: {}' },
  ]);
  assert.is(conversation.request, 'second');
  assert.is(conversation.turn, 2);
  assert.equal(conversation.steps, [
    {
      toolCallId: 'b',
      name: 'browser_click',
      arguments: { clickId: 4 },
      ok: false,
      error: { code: 'INVALID_TARGET', message: 'gone' },
    },
  ]);
});

misc('stream pieces rebuild the text exactly, each piece bounded', () => {
  const text =
    'Offline planner (no LLM configured): a fairly long first line that must be split somewhere sensible\n\n| a | b |\nend';
  const pieces = streamPieces(text, 20);
  assert.is(pieces.join(''), text);
  assert.ok(pieces.length > 5);
  assert.ok(pieces.every((p) => p.length <= 20));
});

misc.run();

const robust = suite('offline planner: never fails on odd input');

robust('random requests, pages and tool results always end with done, never an error', async () => {
  const planner = createOfflinePlanner();
  let seed = 42;
  const rnd = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(items: T[]) => items[Math.floor(rnd() * items.length)]!;
  const words = [
    'open',
    'click',
    '"',
    "'",
    'http://x.test/a',
    '/b.html',
    'type',
    'into',
    'the',
    'field',
    'search',
    'for',
    'switch',
    'tab',
    'new',
    'and',
    'then',
    '$5',
    '12,99 €',
    'table',
    'summarise',
    '⟦q0⟧',
    '',
    '\n',
    'second',
    'last',
    'submit',
    'price',
    'hello',
    '🙂',
  ];
  for (let i = 0; i < 300; i++) {
    const request = Array.from({ length: 1 + Math.floor(rnd() * 12) }, () => pick(words)).join(' ');
    const page =
      rnd() < 0.8
        ? {
            tabId: 1,
            url: pick(['', 'http://x.test/a', 'not a url']),
            title: pick([undefined, '', 'T']),
            text: Array.from({ length: Math.floor(rnd() * 8) }, () => pick(words)).join(pick([' ', '\n', '\t'])),
            elements: Array.from({ length: Math.floor(rnd() * 5) }, (_, k) => ({
              clickId: k,
              tag: pick(['a', 'button', 'input', 'label', 'textarea', 'div']),
              ...(rnd() < 0.7 ? { text: pick(words) } : {}),
              ...(rnd() < 0.3 ? { target: '_blank' } : {}),
            })),
          }
        : undefined;
    const toolContent = pick([
      '{"toolCallId":"a","name":"browser_click","ok":true,"result":{"page":"(superseded by a later page read)"}}',
      'not json',
      '{"ok":false}',
      '[]',
      'null',
    ]);
    const messages = [
      { role: 'user' as const, content: request },
      ...(rnd() < 0.5
        ? [
            {
              role: 'assistant' as const,
              content: '',
              toolCalls: [
                { toolCallId: 'a', name: pick(['browser_click', 'browser_open', 'browser_type', 'x']), arguments: {} },
              ],
            },
            { role: 'tool' as const, toolCallId: 'a', content: toolContent },
          ]
        : []),
    ];
    const snapshot =
      rnd() < 0.5
        ? {
            tabs: [
              { tabId: 1, windowId: 1, active: true },
              { tabId: 2, windowId: 1, active: false },
            ],
            activeTabId: 1,
            taskTabId: pick([1, null]),
          }
        : undefined;
    const events = [];
    for await (const event of planner.streamChat({
      taskId: 't',
      messages,
      tools: [],
      context: { ...(page ? { page } : {}), ...(snapshot ? { snapshot } : {}) },
    }))
      events.push(event);
    const last = events.at(-1)!;
    assert.is(last.type, 'done', `request ${JSON.stringify(request)} ended with ${JSON.stringify(last)}`);
    assert.not.ok(events.some((e) => e.type === 'error'));
  }
});

robust.run();
