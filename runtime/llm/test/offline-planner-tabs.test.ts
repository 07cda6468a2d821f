import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createOfflinePlanner } from '../offline-planner/index.ts';
import { drive } from './offline-world.ts';
import { TEA, teaWorld } from './offline-pages.ts';

const planner = createOfflinePlanner();
const NEW_TAB = `${TEA}/new-tab.html`;
const ARTICLE = `${TEA}/article.html`;

const s = suite('offline planner: open a second tab and switch to it');

for (const request of [
  `open ${NEW_TAB}, then open the article in a new tab and switch to it`,
  `Go to ${NEW_TAB}. Open the link in a new tab, switch to the new tab and tell me its title.`,
  `open ${NEW_TAB} and click "Open the article in a new tab", then switch to the new tab`,
  `open ${NEW_TAB}, open a second tab and switch to it`,
]) {
  s(`"${request}"`, async () => {
    const run = await drive(planner, teaWorld(), request);
    assert.equal(run.toolCalls, [
      { name: 'browser_open', arguments: { url: NEW_TAB } },
      { name: 'browser_click', arguments: { clickId: 1 } },
      { name: 'browser_switch_tab', arguments: { tabId: 101 } },
    ]);
    assert.is(run.taskTabId, 101, 'the task now drives the new tab');
    assert.match(
      run.answer,
      /- Switched to tab 101 "A Short History of the Teapot" \(http:\/\/tea.test\/article.html\)/,
    );
    assert.match(run.answer, /The page is now "A Short History of the Teapot"/);
    const ids = run.steps.flat().flatMap((e) => (e.type === 'tool_call' ? [e.toolCallId] : []));
    assert.is(new Set(ids).size, 3, 'tool call ids are unique');
  });
}

s('on the page already open: click the new-tab link, then switch (from a follow-up message)', async () => {
  const history = [
    { role: 'user' as const, content: `open ${NEW_TAB}` },
    { role: 'assistant' as const, content: 'Offline planner (no LLM configured): done.' },
  ];
  const run = await drive(planner, teaWorld(), 'open the article in a new tab and switch to it', {
    startUrl: NEW_TAB,
    history,
  });
  assert.equal(
    run.toolCalls.map((c) => c.name),
    ['browser_click', 'browser_switch_tab'],
  );
  assert.ok(
    run.steps.flat().some((e) => e.type === 'tool_call' && e.toolCallId === 'offline_2_1'),
    'ids are numbered by turn and step',
  );
});

s('switching to a tab that exists already does not click anything', async () => {
  const run = await drive(planner, teaWorld(), 'switch to the other tab', {
    startUrl: NEW_TAB,
    extraTabs: [{ tabId: 55, url: ARTICLE, groupId: 7 }],
  });
  assert.equal(run.toolCalls, [{ name: 'browser_switch_tab', arguments: { tabId: 55 } }]);
});

s("never picks a tab outside the task group (the user's own tabs)", async () => {
  const run = await drive(planner, teaWorld(), 'switch to the other tab', {
    startUrl: NEW_TAB,
    extraTabs: [{ tabId: 55, url: 'https://mail.example/', groupId: 3 }],
  });
  assert.equal(run.toolCalls, []);
  assert.match(run.answer, /I found no other tab of this task to switch to/);
});

s('prefers the tab showing the clicked link (href + target=_blank known) over newer tabs of the group', async () => {
  const world = {
    pages: {
      'https://docs.example/': {
        title: 'Docs',
        text: 'Docs home',
        elements: [{ clickId: 4, tag: 'a', text: 'Guide', href: '/guide', target: '_blank' }],
      },
      'https://docs.example/guide': { title: 'The guide', text: 'Read me first.', elements: [] },
      'https://docs.example/other': { title: 'Other', text: 'Other page.', elements: [] },
    },
  };
  const run = await drive(
    planner,
    world,
    'open https://docs.example/ then open the guide in a new tab and switch to it',
    {
      extraTabs: [{ tabId: 900, url: 'https://docs.example/other', groupId: 7 }],
    },
  );
  assert.equal(run.toolCalls, [
    { name: 'browser_open', arguments: { url: 'https://docs.example/' } },
    { name: 'browser_click', arguments: { clickId: 4 } },
    { name: 'browser_switch_tab', arguments: { tabId: 101 } },
  ]);
  assert.match(run.answer, /Switched to tab 101 "The guide"/);
});

s(
  'without hrefs (the dom index gives none), the tab sharing words with the link text wins over a newer one',
  async () => {
    const run = await drive(planner, teaWorld(), `open ${NEW_TAB}, open the article in a new tab and switch to it`, {
      extraTabs: [{ tabId: 900, url: `${TEA}/products.html`, groupId: 7 }],
    });
    assert.equal(run.toolCalls.at(-1), { name: 'browser_switch_tab', arguments: { tabId: 101 } });
  },
);

s('an explicit tab id is used as given; a refused switch is reported with its code', async () => {
  const run = await drive(planner, teaWorld(), 'switch to tab 55', {
    startUrl: NEW_TAB,
    extraTabs: [{ tabId: 55, url: 'https://mail.example/', groupId: 3 }],
  });
  assert.equal(run.toolCalls, [{ name: 'browser_switch_tab', arguments: { tabId: 55 } }]);
  assert.match(
    run.answer,
    /the step browser_switch_tab failed with INVALID_TASK_TAB: tab 55 does not belong to this task/,
  );
});

s('no link opens a new tab: says so instead of clicking something else', async () => {
  const run = await drive(planner, teaWorld(), 'open a second tab and switch to it', {
    startUrl: `${TEA}/products.html`,
  });
  assert.equal(run.toolCalls, []);
  assert.match(run.answer, /there is no link on "Products" \(http:\/\/tea.test\/products.html\) that opens a new tab/);
});

s('without browser state it cannot choose a tab and says why', async () => {
  const run = await drive(planner, teaWorld(), 'open the article in a new tab and switch to it', {
    startUrl: NEW_TAB,
    noSnapshot: true,
  });
  assert.equal(
    run.toolCalls.map((c) => c.name),
    ['browser_click'],
  );
  assert.match(run.answer, /I cannot see the browser's tabs/);
});

s.run();
