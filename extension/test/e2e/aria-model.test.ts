// The page model from Chrome's accessibility tree through the real extension (issue 21), on our
// own widget page (pages/aria-widgets.html): items that are not tab stops, ARIA states, an open
// shadow root and a same-origin iframe inlined, stable refs, actions on those refs that report
// the target's states, a modal dialog that scopes the model and refuses what is behind it, and
// the DOM heuristic when asked for. Verdicts are read from the page's own DOM.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DomIndexElement } from '../../../transport/contracts/index.ts';
import type { ActionOutcome } from '../harness/action-driver.ts';
import { serveCorpus, type CorpusSite } from './corpus-site.ts';
import { pluginUiStateFrame } from '../../../transport/contracts/plugin-frames.ts';
import { armWatchdog, inWorker, pageOf, startE2eEnv, waitUntil, type E2eEnv } from './e2e-util.ts';

const disarm = armWatchdog(150_000, 'aria-model.test');
const s = suite<{ env: E2eEnv; corpus: CorpusSite; tabId: number }>('the accessibility-tree page model in Chromium');

function ok(outcome: ActionOutcome): Record<string, any> {
  assert.is(outcome.result.status, 'success', JSON.stringify(outcome.result));
  return outcome.result.result as Record<string, any>;
}

async function index(
  env: E2eEnv,
  tabId: number,
  extra: Record<string, unknown> = {},
): Promise<{
  elements: DomIndexElement[];
  source?: string;
  modal?: { role: string; name?: string };
  warnings?: string[];
}> {
  return ok(await env.driver.send('browser_dom_index', { tabId, scope: 'document', ...extra })) as any;
}

const named = (elements: DomIndexElement[], role: string, name: string) => {
  const found = elements.find((e) => e.role === role && (e.text ?? e.label) === name);
  assert.ok(
    found,
    `no ${role} "${name}" in ${JSON.stringify(elements.map((e) => `${e.role}:${e.text ?? e.label ?? ''}`))}`,
  );
  return found!;
};

async function pageLog(env: E2eEnv): Promise<string> {
  return (await pageOf(env, 'aria-widgets.html')).evaluate(() => document.getElementById('log')!.textContent ?? '');
}

s.before(async (ctx) => {
  ctx.env = await startE2eEnv('playwright');
  ctx.corpus = await serveCorpus();
  const started = ok(await ctx.env.driver.send('task_start', { url: `${ctx.corpus.url}/local/aria-widgets.html` }));
  ctx.tabId = started.tabId;
  ok(await ctx.env.driver.send('browser_wait_for_loaded', { tabId: ctx.tabId }));
});
s.after(async (ctx) => {
  await ctx.corpus?.close();
  await ctx.env?.close();
  disarm();
});

s('lists widget items that are not tab stops, with their own names and ARIA states', async ({ env, tabId }) => {
  const model = await index(env, tabId);
  assert.is(model.source, 'ax');
  const { elements } = model;
  assert.equal(named(elements, 'treeitem', 'src').expanded, true);
  assert.is(named(elements, 'treeitem', 'index.ts').selected, true);
  assert.is(named(elements, 'treeitem', 'lib').level, 2);
  assert.not.ok(
    elements.some((e) => e.text === 'util.ts'),
    'a collapsed tree item is not listed',
  );
  assert.is(named(elements, 'checkbox', 'All toppings').checked, 'mixed');
  assert.is(named(elements, 'button', 'Bold').pressed, true);
  assert.is(named(elements, 'gridcell', '3').selected, true);
  named(elements, 'gridcell', '2');
  assert.is(named(elements, 'columnheader', 'Mo').sort, 'ascending');
  assert.is(named(elements, 'link', 'Home').current, 'page');
  const fruit = elements.find((e) => e.role === 'combobox' && e.value === 'Apple');
  assert.ok(fruit, 'the custom combobox shows its value');
  assert.is(fruit!.expanded, false);
  assert.is(named(elements, 'combobox', 'City').tag, 'input', '<input list> is a combobox');
  assert.is(named(elements, 'textbox', 'Password').type, 'password', 'an empty password field is known as one');
  const volume = named(elements, 'slider', 'Volume');
  assert.equal([volume.valueNow, volume.valueMin, volume.valueMax], [30, 0, 100]);
  assert.is(named(elements, 'tab', 'Week').selected, false);
  named(elements, 'button', 'Shadow action');
  assert.is(named(elements, 'button', 'Inner button').frame, 'Inner frame');
  assert.not.ok(
    elements.some((e) => e.role === 'link' && (e.text ?? '') !== 'Home'),
    'the link inside a closed <details> is not listed',
  );
});

s(
  'refs are stable while the node lives; a click reports the new expanded state; menu items are listed and act',
  async ({ env, tabId }) => {
    const first = await index(env, tabId);
    const second = await index(env, tabId);
    assert.is(named(second.elements, 'button', 'Bold').clickId, named(first.elements, 'button', 'Bold').clickId);
    const opened = ok(
      await env.driver.send('browser_click', { tabId, clickId: named(second.elements, 'button', 'Text size').clickId }),
    );
    assert.is(opened.target?.expanded, true, JSON.stringify(opened));
    const withMenu = await index(env, tabId);
    assert.is(named(withMenu.elements, 'menuitemradio', 'Small').checked, true);
    const large = named(withMenu.elements, 'menuitemradio', 'Large');
    ok(await env.driver.send('browser_click', { tabId, clickId: large.clickId }));
    assert.match(await pageLog(env), 'size=Large');
  },
);

s(
  'elements in an open shadow root and in a same-origin iframe are clicked through their refs',
  async ({ env, tabId }) => {
    const { elements } = await index(env, tabId);
    const shadow = await env.driver.send('browser_click', {
      tabId,
      clickId: named(elements, 'button', 'Shadow action').clickId,
    });
    ok(shadow);
    const inner = await env.driver.send('browser_click', {
      tabId,
      clickId: named(elements, 'button', 'Inner button').clickId,
    });
    ok(inner);
    const log = await pageLog(env);
    assert.match(log, 'shadow;');
    assert.match(log, 'inner;');
  },
);

s(
  'a modal dialog scopes the model, and an action behind it is refused with ELEMENT_OUTSIDE_MODAL',
  async ({ env, tabId }) => {
    const before = await index(env, tabId);
    const behind = named(before.elements, 'button', 'Behind the dialog');
    ok(
      await env.driver.send('browser_click', {
        tabId,
        clickId: named(before.elements, 'button', 'Delete account').clickId,
      }),
    );
    const scoped = await index(env, tabId);
    assert.equal(scoped.modal, { role: 'alertdialog', name: 'Delete your account?' });
    assert.equal(
      scoped.elements.map((e) => e.text),
      ['Cancel', 'Delete'],
    );
    const refused = await env.driver.send('browser_click', { tabId, clickId: behind.clickId });
    assert.is(refused.result.status, 'error');
    assert.is(refused.result.error?.code, 'ELEMENT_OUTSIDE_MODAL', JSON.stringify(refused.result.error));
    const byXpath = await env.driver.send('browser_click', { tabId, xpath: '//*[@id="behind"]' });
    assert.is(byXpath.result.error?.code, 'ELEMENT_OUTSIDE_MODAL', 'the DOM path is scoped too');
    assert.not.match(await pageLog(env), 'behind');
    ok(await env.driver.send('browser_click', { tabId, clickId: named(scoped.elements, 'button', 'Cancel').clickId }));
    assert.match(await pageLog(env), 'cancel;');
    const after = await index(env, tabId);
    assert.is(after.modal, undefined);
    assert.is(
      named(after.elements, 'button', 'Behind the dialog').clickId,
      behind.clickId,
      'the node lived on: same ref',
    );
  },
);

s(
  'select works on ARIA comboboxes and listboxes: opens, chooses by label or value, verifies',
  async ({ env, tabId }) => {
    const { elements } = await index(env, tabId);
    const fruit = elements.find((e) => e.role === 'combobox' && e.value === 'Apple')!;
    const chosen = ok(await env.driver.send('browser_select', { tabId, clickId: fruit.clickId, values: ['Pear'] }));
    assert.equal(chosen.labels, ['Pear']);
    assert.is(chosen.target?.value, 'Pear', JSON.stringify(chosen));
    const colour = ok(
      await env.driver.send('browser_select', {
        tabId,
        clickId: named(elements, 'listbox', 'Colour').clickId,
        values: ['green'],
      }),
    );
    assert.equal(colour.labels, ['Green']);
    const missing = await env.driver.send('browser_select', { tabId, clickId: fruit.clickId, values: ['Banana'] });
    assert.is(missing.result.error?.code, 'INVALID_TARGET');
    assert.match(missing.result.error?.message ?? '', '"Plum"', 'the refusal lists the options there are');
    const country = ok(
      await env.driver.send('browser_select', {
        tabId,
        clickId: named(elements, 'combobox', 'Country').clickId,
        values: ['Finland'],
      }),
    );
    assert.equal(country.labels, ['Finland']);
    const log = await pageLog(env);
    assert.match(log, 'fruit=pear;');
    assert.match(log, 'colour=green;');
    assert.match(log, 'country=Finland;');
    assert.is(
      await (
        await pageOf(env, 'aria-widgets.html')
      ).evaluate(() => (document.getElementById('country') as HTMLInputElement).value),
      'Finland',
    );
  },
);

s('typing into a combobox reports the suggestions it shows', async ({ env, tabId }) => {
  const { elements } = await index(env, tabId);
  const typed = ok(
    await env.driver.send('browser_type', {
      tabId,
      clickId: named(elements, 'combobox', 'Country').clickId,
      text: 'F',
    }),
  );
  assert.equal(typed.suggestions, ['France', 'Finland']);
  assert.is(typed.target?.expanded, true);
});

s('source "dom" gives the DOM heuristic and says so', async ({ env, tabId }) => {
  const model = await index(env, tabId, { source: 'dom' });
  assert.is(model.source, 'dom');
  assert.ok(model.elements.some((e) => e.tag === 'button'));
  assert.not.ok(
    model.elements.some((e) => e.href?.endsWith('#hidden-link')),
    'the DOM heuristic does not list a link inside a closed <details> either',
  );
});

s(
  "after the idle detach (issue 23), an ARIA select by XPath and a click's target states attach the debugger again",
  async ({ env, tabId }) => {
    const attached = () =>
      inWorker(
        env,
        (id: number) =>
          (globalThis as any).chrome.debugger.sendCommand({ tabId: id }, 'Runtime.evaluate', { expression: '1' }).then(
            () => true,
            () => false,
          ),
        tabId,
      );
    // The server says the task ended: the extension lets go of the debugger at once (task-idle.ts),
    // as it does DEBUGGER_IDLE_MS after the last action.
    await env.driver.sendRaw(
      pluginUiStateFrame({
        taskId: env.driver.taskId,
        clientId: env.driver.clientId,
        timestamp: Date.now(),
        state: 'idle',
      }),
    );
    await waitUntil(async () => !(await attached()), 5_000);
    const chosen = ok(await env.driver.send('browser_select', { tabId, xpath: '//*[@id="fruit"]', values: ['Plum'] }));
    assert.equal(chosen.labels, ['Plum']);
    assert.is(chosen.target?.value, 'Plum', JSON.stringify(chosen));
    assert.match(await pageLog(env), 'fruit=plum;');
    await env.driver.sendRaw(
      pluginUiStateFrame({
        taskId: env.driver.taskId,
        clientId: env.driver.clientId,
        timestamp: Date.now(),
        state: 'idle',
      }),
    );
    await waitUntil(async () => !(await attached()), 5_000);
    const focused = ok(await env.driver.send('browser_focus', { tabId, xpath: '//*[@id="colours"]' }));
    assert.is(focused.target?.role, 'listbox', JSON.stringify(focused));
  },
);

s.run();
