// TodoMVC (vanilla ES6 and React, unchanged third-party builds) driven through browser-shell
// over MCP with the official SDK client, the real runtime and the real extension in a plain
// Chromium (task tab in the background, no Playwright emulation). Every step is checked
// against the page's real DOM, never against the action's own words: add three, toggle one by
// ref (its checkbox is opacity 0, operated where a user clicks), "N items left" read back from
// the snapshot text, filters by hash route, edit by double-click, clear completed.
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { mcpSuite, refWhere, until, type McpEnv } from './mcp-env.ts';

const s = mcpSuite('TodoMVC through browser-shell in a real Chromium', 'corpus-todomvc.test');

const TODOS = ['Buy milk', 'Walk the dog', 'Write the report'];

/**
 * The todo list as the page shows it: title and completed flag of every visible item, by title
 * (the ES6 build lists the newest first, React the oldest).
 */
async function listOf(page: Page): Promise<Array<{ title: string; done: boolean }>> {
  const items = await page.$$eval('.todo-list li', (lis) =>
    lis
      .filter((li) => getComputedStyle(li).display !== 'none')
      .map((li) => ({
        title: (li.querySelector('label')?.textContent ?? '').trim(),
        done: li.classList.contains('completed'),
      })),
  );
  return items.sort((a, b) => a.title.localeCompare(b.title));
}

for (const app of [
  { name: 'javascript-es6', path: '/todomvc/javascript-es6/index.html', title: 'TodoMVC: JavaScript Es6 Webpack' },
  { name: 'react', path: '/todomvc/react/index.html', title: 'TodoMVC: React' },
]) {
  s(
    `${app.name}: add three, toggle one by ref, items left, filters, edit by double-click, clear completed`,
    async ({ env }) => {
      const session = `todo-${app.name}`;
      const opened = await env.ok(session, ['open', env.corpus.url + app.path]);
      assert.is(opened.title, app.title, 'open reports the new page title');
      const page = await env.pageOf(app.path);
      assert.not.ok(
        (await env.activeUrls()).some((u) => u.includes(app.path)),
        'the task tab stays in the background',
      );

      // Add three todos: fill the new-todo field, press Enter.
      let snap = await env.ok(session, ['snapshot', '-i']);
      const input = refWhere(snap, (e) => e.placeholder === 'What needs to be done?', 'the new-todo field');
      for (const title of TODOS) {
        await env.ok(session, ['fill', input, title]);
        const pressed = await env.ok(session, ['press', 'Enter']);
        assert.is(pressed.pressed, 'Enter');
      }
      assert.equal(
        await listOf(page),
        TODOS.map((title) => ({ title, done: false })),
      );

      // Toggle "Walk the dog" by its ref: its checkbox is transparent (opacity 0) over a drawn one.
      snap = await env.ok(session, ['snapshot', '-i']);
      const toggle = refWhere(
        snap,
        (e) => e.role === 'checkbox' && /Walk the dog/.test(e.name),
        'the toggle of "Walk the dog"',
      );
      const checked = await env.ok(session, ['check', toggle]);
      assert.equal([checked.state, checked.changed], ['checked', true]);
      assert.equal(await listOf(page), [
        { title: 'Buy milk', done: false },
        { title: 'Walk the dog', done: true },
        { title: 'Write the report', done: false },
      ]);
      assert.match((await page.textContent('.todo-count')) ?? '', /^2 items left!?$/);

      // The page text (readability) holds the todo list and "2 items left", not only the footer.
      const full = await env.ok(session, ['snapshot']);
      for (const title of TODOS) assert.ok(full.text.includes(title), `"${title}" in the page text:\n${full.text}`);
      assert.match(full.text, /2 items left/);
      assert.ok(
        full.text.indexOf('Buy milk') < full.text.indexOf('Double-click to edit'),
        'the list comes before the footer',
      );
      assert.ok(/Buy milk\s*\n/.test(full.text), `block boundaries kept between items:\n${full.text}`);

      // Filters are hash routes: same-document navigations, recognised as such.
      const filter = async (name: string) => {
        const refs = await env.ok(session, ['snapshot', '-i']);
        const link = refWhere(refs, (e) => e.role === 'link' && e.name === name, `the "${name}" filter`);
        const clicked = await env.ok(session, ['click', link]);
        assert.is(clicked.navigated, true, `${name}: the click says it navigated`);
        assert.is(clicked.sameDocument, true, `${name}: a route change in the same document`);
        await until(
          async () => (await page.evaluate(() => location.hash)).length > 0 || name === 'All',
          `${name} route`,
        );
        return clicked;
      };
      const active = await filter('Active');
      assert.match(active.url, /#\/active$/);
      await until(async () => (await listOf(page)).length === 2, 'the Active filter to apply');
      assert.equal(
        (await listOf(page)).map((t) => t.title),
        ['Buy milk', 'Write the report'],
      );
      await filter('Completed');
      await until(async () => (await listOf(page)).length === 1, 'the Completed filter to apply');
      assert.equal(await listOf(page), [{ title: 'Walk the dog', done: true }]);
      await filter('All');
      await until(async () => (await listOf(page)).length === 3, 'the All filter to apply');

      // Edit by double-click on the title, type the new one, Enter.
      snap = await env.ok(session, ['snapshot', '-i']);
      const label = refWhere(
        snap,
        (e) => e.tag === 'label' && e.name === 'Write the report',
        'the title of "Write the report"',
      );
      await env.ok(session, ['dblclick', label]);
      await until(() => page.$('.todo-list li.editing'), 'the item to enter editing mode');
      snap = await env.ok(session, ['snapshot', '-i']);
      const edit = refWhere(
        snap,
        (e) => e.role === 'textbox' && e.placeholder !== 'What needs to be done?',
        'the edit field',
      );
      await env.ok(session, ['fill', edit, 'Write the summary']);
      await env.ok(session, ['press', 'Enter']);
      await until(async () => (await listOf(page)).some((t) => t.title === 'Write the summary'), 'the edited title');
      assert.equal(
        (await listOf(page)).map((t) => t.title),
        ['Buy milk', 'Walk the dog', 'Write the summary'],
      );
      assert.is(await page.$('.todo-list li.editing'), null);

      // Clear completed: the completed one goes, the two others stay.
      snap = await env.ok(session, ['snapshot', '-i']);
      const clear = refWhere(snap, (e) => e.role === 'button' && /Clear completed/.test(e.name), 'Clear completed');
      await env.ok(session, ['click', clear]);
      await until(async () => (await listOf(page)).length === 2, 'the completed todo to be cleared');
      assert.equal(await listOf(page), [
        { title: 'Buy milk', done: false },
        { title: 'Write the summary', done: false },
      ]);
      const after = await env.ok(session, ['snapshot']);
      assert.match(after.text, /2 items left/);
      assert.not.match(after.text, /Walk the dog/);
      assert.not.ok(
        (await env.activeUrls()).some((u) => u.includes(app.path)),
        'still in the background',
      );
      await env.ok(session, ['close']);
    },
  );
}

s.run();
