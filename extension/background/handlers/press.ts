// browser_press: any key or chord (Tab, Escape, arrows, Backspace, Enter, Control+A, Shift/Meta
// combinations) as trusted CDP key events to the target (focused first) or, without one, to
// whatever holds the focus. Without CDP: synthetic KeyboardEvents (Enter submits the form).
// An unknown key name is SCHEMA_VALIDATION_FAILED and nothing is pressed.
import type { ActionHandler } from '../action-context.ts';
import { fail } from '../action-failure.ts';
import { CdpError } from '../cdp-sessions.ts';
import { chordEvents, parseChord } from '../key-chord.ts';
import { OWN_INPUT_ARM_MS } from '../../shared/own-input-guard.ts';
import { requireTaskTab } from '../tab-guard.ts';
import { INPUT_COMMIT_WAIT_MS, reportAfterInput, watchNavigation } from './navigation-watch.ts';
import { failTarget, focusFrameNode, runPageOp, targetSpec } from './page-op.ts';

const isMac = () => /Mac/i.test((globalThis as { navigator?: { platform?: string } }).navigator?.platform ?? '');

export const press: ActionHandler<'browser_press'> = async (params, ctx) => {
  await requireTaskTab(ctx, ctx.taskId, params.tabId);
  const parsed = parseChord(params.key, isMac());
  if (!parsed.ok) fail('SCHEMA_VALIDATION_FAILED', parsed.message, { key: params.key });
  const { chord } = parsed;
  const target = await targetSpec(ctx, params.tabId, params);
  const warnings: string[] = [];
  const navigated = await watchNavigation(ctx, params.tabId);
  let strategy: 'cdp_key' | 'dom_input' = 'cdp_key';
  try {
    await ctx.cdp.attach(params.tabId);
    const focused = await runPageOp(ctx, params.tabId, 'focusForKeys', { target, guardMs: OWN_INPUT_ARM_MS });
    if (!focused.ok) failTarget(focused);
    await focusFrameNode(ctx, params.tabId, target);
    const events = chordEvents(chord, focused.mac);
    await Promise.all(events.map((event) => ctx.cdp.send(params.tabId, 'Input.dispatchKeyEvent', event)));
  } catch (error) {
    if (!(error instanceof CdpError)) throw error;
    warnings.push(`cdp_key unavailable (${error.message}); dispatched synthetic key events`);
    strategy = 'dom_input';
    const mods = {
      alt: (chord.mask & 1) !== 0,
      ctrl: (chord.mask & 2) !== 0,
      meta: (chord.mask & 4) !== 0,
      shift: (chord.mask & 8) !== 0,
    };
    const done = await runPageOp(ctx, params.tabId, 'domKey', {
      target,
      key: chord.key.key,
      code: chord.key.code,
      text: chord.key.text ?? '',
      modifiers: mods,
    });
    if (!done.ok) failTarget(done);
  }
  const submit = chord.key.key === 'Enter' && chord.mask === 0 ? { target } : null;
  return reportAfterInput(
    ctx,
    params.tabId,
    { pressed: chord.name, strategy },
    await navigated(INPUT_COMMIT_WAIT_MS),
    submit,
    warnings,
  );
};
