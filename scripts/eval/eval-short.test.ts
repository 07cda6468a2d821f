// The short eval in `npm test`: five corpus tasks through the real server, the real extension in
// headless Chromium and the offline planner; each must succeed by its page-state predicate, and
// every LLM step's page context must stay within the 4000-token budget (o200k), also on SQLite's
// 1.58 MB lang_select.html where the target lies outside the first page context.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_CONTEXT_TOKENS } from '../../runtime/agent/context-budget.ts';
import { runEvalTask, startEvalEnv, type EvalEnv } from './eval-runner.ts';
import { evalTasks } from './tasks.ts';

export const SHORT_EVAL = [
  'todomvc-es6: add three todos',
  'todomvc-react: complete one todo',
  'mdn: fill the first form',
  'mdn: choose an option of a multiple select',
  'sqlite: a link past the context budget',
];

const test = suite<{ ev: EvalEnv }>('eval (short) through the real extension', { ev: undefined as never });

test.before(async (ctx) => {
  // The offline planner whatever the caller's environment says: this test pins its behaviour.
  ctx.ev = await startEvalEnv({ env: {} });
});
test.after(async (ctx) => {
  await ctx.ev?.close();
});

for (const id of SHORT_EVAL) {
  test(id, async ({ ev }) => {
    const task = evalTasks.find((t) => t.id === id);
    assert.ok(task, `no eval task "${id}"`);
    assert.is(ev.llm.kind, 'offline');
    const result = await runEvalTask(ev, task!, { timeoutMs: 60_000 });
    assert.ok(result.success, `${id}: ${result.detail}${result.error ? ` [${result.error}]` : ''}\n${result.answer}`);
    assert.is(result.error, null);
    assert.ok(result.steps >= 2, 'the planner opened the page and acted');
    for (const tokens of result.contextTokens)
      assert.ok(tokens <= DEFAULT_CONTEXT_TOKENS, `a step's page context took ${tokens} tokens`);
    assert.not.match(result.answer, /\bdone\.[\s\S]*Not done/);
  });
}

test('the large page really is cut and paged: the target was found with browser_list_elements', async ({ ev }) => {
  const task = evalTasks.find((t) => t.id === 'sqlite: a link past the context budget')!;
  const result = await runEvalTask(ev, task, { timeoutMs: 60_000 });
  assert.ok(result.success, result.detail);
  assert.match(result.answer, /looking for "VALUES clause" among the \d+ elements the page context left out/);
  assert.ok(Math.max(...result.contextTokens) > 3_000, `the budget was used: ${result.contextTokens.join(', ')}`);
});

test.run();
