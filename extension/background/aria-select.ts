// browser_select on ARIA widgets: a listbox, or a combobox that is not a native
// <select>. As a person would: open the combobox (a click), type into an editable one to bring up
// its suggestions when the option is not shown yet, click the option whose accessible name (or
// value / data-value / id) matches, then read the widget back from the accessibility tree to
// verify the choice took. Options are found through aria-controls, else anywhere in the widget's
// document. A widget in an out-of-process frame (or a frame nested in one) is read, marked and
// clicked through that frame's child session, like any other target there.
import type { TargetSpec } from '../page/page-ops.ts';
import type { ActionContext } from './action-context.ts';
import { fail } from './action-failure.ts';
import { markNode } from './mark-node.ts';
import { propertiesOf, roleOfNode, textOfValue, type AxNode } from './ax-tree.ts';
import { failTarget, focusFrameNode, runPageOp } from './handlers/page-op.ts';
import { cdpClickAt, pointAt } from './handlers/pointer.ts';

export interface AriaWidget {
  backendId: number;
  role: 'combobox' | 'listbox';
  node: AxNode;
  /** Where an accessibility ref's node lives (its frame, and the child session of an out-of-process one). */
  frame?: Omit<NonNullable<TargetSpec['node']>, 'backendId'>;
}

/** How long an opened combobox may take to show its options. */
const OPTIONS_WAIT_MS = 1_500;
const ESCAPE_DOWN = { type: 'rawKeyDown', key: 'Escape', code: 'Escape', windowsVirtualKeyCode: 27 };
const ESCAPE_UP = { type: 'keyUp', key: 'Escape', code: 'Escape', windowsVirtualKeyCode: 27 };
const POLL_MS = 50;

type Where = Pick<AriaWidget, 'frame'>;

/** A CDP command in the widget's process (its frame's child session, or the tab's own). */
const send = <T>(ctx: ActionContext, tabId: number, where: Where, method: string, params: Record<string, unknown>) =>
  ctx.cdp.send<T>(tabId, method, params, where.frame?.sessionId ? { sessionId: where.frame.sessionId } : undefined);

async function partial(
  ctx: ActionContext,
  tabId: number,
  where: Where,
  backendNodeId: number,
): Promise<AxNode | undefined> {
  const { nodes } = await send<{ nodes: AxNode[] }>(ctx, tabId, where, 'Accessibility.getPartialAXTree', {
    backendNodeId,
    fetchRelatives: false,
  });
  return nodes.find((n) => n.backendDOMNodeId === backendNodeId) ?? nodes[0];
}

/** The backend id of the widget's own document (its frame's, not the top one's). */
async function documentOf(ctx: ActionContext, tabId: number, widget: AriaWidget): Promise<number> {
  const objectGroup = 'mimo-aria-select';
  try {
    const { object } = await send<{ object: { objectId?: string } }>(ctx, tabId, widget, 'DOM.resolveNode', {
      backendNodeId: widget.backendId,
      objectGroup,
    });
    const { result } = await send<{ result: { objectId?: string } }>(ctx, tabId, widget, 'Runtime.callFunctionOn', {
      objectId: object.objectId,
      functionDeclaration: 'function () { return this.ownerDocument; }',
      objectGroup,
    });
    const { node } = await send<{ node: { backendNodeId: number } }>(ctx, tabId, widget, 'DOM.describeNode', {
      objectId: result.objectId,
    });
    return node.backendNodeId;
  } finally {
    void send(ctx, tabId, widget, 'Runtime.releaseObjectGroup', { objectGroup }).catch(() => {});
  }
}

/** The ARIA combobox or listbox a select target names; null for a native <select> (the page agent's) or anything else. */
export async function ariaWidgetOf(ctx: ActionContext, tabId: number, target: TargetSpec): Promise<AriaWidget | null> {
  if (!ctx.cdp.isAttached(tabId)) return null;
  const where: Where = {};
  if (target.node) {
    const { backendId: _, ...frame } = target.node;
    where.frame = frame;
  }
  try {
    let backendId = target.node?.backendId;
    if (backendId === undefined) {
      const expression =
        target.xpath !== undefined
          ? `document.evaluate(${JSON.stringify(target.xpath)}, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue`
          : target.ref && target.clickId !== undefined
            ? `document.querySelector(${JSON.stringify(`[${target.ref.attr}="${target.clickId}"]`)})`
            : null;
      if (!expression) return null;
      const found = await ctx.cdp.send<{ result: { objectId?: string } }>(tabId, 'Runtime.evaluate', { expression });
      if (!found.result.objectId) return null;
      backendId = (
        await ctx.cdp.send<{ node: { backendNodeId: number } }>(tabId, 'DOM.describeNode', {
          objectId: found.result.objectId,
        })
      ).node.backendNodeId;
    }
    const described = await send<{ node: { nodeName: string } }>(ctx, tabId, where, 'DOM.describeNode', {
      backendNodeId: backendId,
    });
    if (described.node.nodeName === 'SELECT') return null;
    const node = await partial(ctx, tabId, where, backendId);
    const role = node ? roleOfNode(node) : '';
    return node && (role === 'combobox' || role === 'listbox') ? { backendId, role, node, ...where } : null;
  } catch {
    return null;
  }
}

interface OptionNode {
  backendId: number;
  name: string;
  selected?: boolean;
}

async function visibleOptions(ctx: ActionContext, tabId: number, widget: AriaWidget): Promise<OptionNode[]> {
  const fresh = (await partial(ctx, tabId, widget, widget.backendId)) ?? widget.node;
  const controls = propertiesOf(fresh).get('controls');
  const roots =
    widget.role === 'listbox'
      ? [widget.backendId]
      : Array.isArray(controls)
        ? (controls as Array<{ backendDOMNodeId?: number }>)
            .map((r) => r.backendDOMNodeId)
            .filter((id): id is number => id !== undefined)
        : [];
  // A combobox whose pop-up is a grid (its cells are the choices) or a tree (its items).
  const popup = propertiesOf(fresh).get('hasPopup');
  const roles = ['option'];
  if (widget.role === 'combobox' && roots.length > 0 && (popup === 'grid' || popup === 'tree'))
    roles.push(popup === 'grid' ? 'gridcell' : 'treeitem');
  if (roots.length === 0) roots.push(await documentOf(ctx, tabId, widget));
  const out: OptionNode[] = [];
  for (const role of roles) {
    for (const root of roots) {
      const { nodes } = await send<{ nodes: AxNode[] }>(ctx, tabId, widget, 'Accessibility.queryAXTree', {
        backendNodeId: root,
        role,
      }).catch(() => ({ nodes: [] as AxNode[] }));
      for (const node of nodes) {
        if (node.ignored || node.backendDOMNodeId === undefined) continue;
        const option: OptionNode = { backendId: node.backendDOMNodeId, name: textOfValue(node.name) };
        const selected = propertiesOf(node).get('selected');
        if (typeof selected === 'boolean') option.selected = selected;
        out.push(option);
      }
    }
    if (out.length > 0) break;
  }
  return out;
}

/** The option a wanted string names: its accessible name, else its value, data-value or id attribute. */
async function matchOption(
  ctx: ActionContext,
  tabId: number,
  where: Where,
  options: OptionNode[],
  wanted: string,
): Promise<OptionNode | undefined> {
  const norm = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();
  const exact = options.find((o) => norm(o.name) === norm(wanted));
  if (exact) return exact;
  for (const option of options) {
    const { node } = await send<{ node: { attributes?: string[] } }>(ctx, tabId, where, 'DOM.describeNode', {
      backendNodeId: option.backendId,
    }).catch(() => ({ node: {} as { attributes?: string[] } }));
    const attrs = node.attributes ?? [];
    for (let i = 0; i + 1 < attrs.length; i += 2)
      if (['value', 'data-value', 'id'].includes(attrs[i]!) && attrs[i + 1] === wanted) return option;
  }
  return undefined;
}

/** A node of the widget's document as a target: marked for the page agent, with its frame for CDP. */
async function targetOf(ctx: ActionContext, tabId: number, where: Where, backendId: number): Promise<TargetSpec> {
  const target = await markNode(ctx, tabId, backendId, `select-${backendId}`, where.frame?.sessionId);
  if (where.frame) target.node = { ...where.frame, backendId };
  return target;
}

async function clickNode(ctx: ActionContext, tabId: number, where: Where, backendId: number): Promise<void> {
  const target = await targetOf(ctx, tabId, where, backendId);
  // Where it is in the frame, once it stops moving (the pop-up opening); warnings are the action's own concern.
  const located = await pointAt(ctx, tabId, target, []);
  if (!located) fail('INVALID_TARGET', 'the option has no box to click', { reason: 'not_visible' });
  await cdpClickAt(ctx, tabId, located, 1);
}

const pause = (ctx: ActionContext, ms: number) => new Promise<void>((resolve) => ctx.timers.setTimeout(resolve, ms));

async function waitForOption(
  ctx: ActionContext,
  tabId: number,
  widget: AriaWidget,
  wanted: string,
): Promise<{ option?: OptionNode; options: OptionNode[] }> {
  let options: OptionNode[] = [];
  for (let waited = 0; ; waited += POLL_MS) {
    options = await visibleOptions(ctx, tabId, widget);
    const option = await matchOption(ctx, tabId, widget, options, wanted);
    if (option || waited >= OPTIONS_WAIT_MS) return option ? { option, options } : { options };
    await pause(ctx, POLL_MS);
  }
}

export async function ariaSelect(
  ctx: ActionContext,
  tabId: number,
  widget: AriaWidget,
  values: string[],
  warnings: string[],
): Promise<{ selected: string[]; labels: string[] }> {
  if (widget.role === 'combobox' && values.length !== 1)
    fail('INVALID_TARGET', `a combobox takes exactly one option; got ${values.length}`, { reason: 'not_editable' });
  const labels: string[] = [];
  for (const wanted of values) {
    const opened =
      widget.role === 'combobox' &&
      propertiesOf((await partial(ctx, tabId, widget, widget.backendId)) ?? widget.node).get('expanded') !== true;
    if (opened) await clickNode(ctx, tabId, widget, widget.backendId);
    let found = await waitForOption(ctx, tabId, widget, wanted);
    const editable = propertiesOf(widget.node).get('editable') !== undefined;
    const firstSeen = found.options;
    if (!found.option && widget.role === 'combobox' && editable) {
      // An autocomplete: its suggestions come from what is typed.
      const target = await targetOf(ctx, tabId, widget, widget.backendId);
      const focused = await runPageOp(ctx, tabId, 'focusForTyping', { target, guardMs: 2_000 });
      if (!focused.ok) failTarget(focused);
      // The browser's focus into the widget's frame, for the text to reach it (as browser_type does).
      await focusFrameNode(ctx, tabId, target);
      await ctx.cdp.send(tabId, 'Input.insertText', { text: wanted });
      found = await waitForOption(ctx, tabId, widget, wanted);
      if (!found.option) {
        // A datalist or free-text combobox: what was typed is the value.
        const value = textOfValue((await partial(ctx, tabId, widget, widget.backendId))?.value);
        if (value.toLowerCase() === wanted.toLowerCase()) {
          const seen = firstSeen.map((o) => JSON.stringify(o.name)).slice(0, 10);
          warnings.push(
            `no suggestion list showed this option (${seen.length > 0 ? `it showed ${seen.join(', ')}` : 'it showed none'}); the text was typed into the combobox`,
          );
          labels.push(value);
          continue;
        }
      }
    }
    if (!found.option) {
      // Leave the page as it was: a person would close the list they opened.
      if (opened)
        await Promise.all([
          send(ctx, tabId, widget, 'Input.dispatchKeyEvent', ESCAPE_DOWN),
          send(ctx, tabId, widget, 'Input.dispatchKeyEvent', ESCAPE_UP),
        ]).catch(() => {});
      const shown = found.options
        .map((o) => JSON.stringify(o.name))
        .slice(0, 30)
        .join(', ');
      fail(
        'INVALID_TARGET',
        `no option ${JSON.stringify(wanted)} in the ${widget.role}${shown ? `; options: ${shown}` : ' (it showed no options)'}`,
        { reason: 'not_found' },
      );
    }
    await clickNode(ctx, tabId, widget, found.option.backendId);
    labels.push(found.option.name);
  }
  await verify(ctx, tabId, widget, labels, warnings);
  return { selected: values, labels };
}

/** The widget's value (a combobox) or its options' selected states (a listbox) must show the choice. */
async function verify(
  ctx: ActionContext,
  tabId: number,
  widget: AriaWidget,
  labels: string[],
  warnings: string[],
): Promise<void> {
  const norm = (text: string) => text.toLowerCase();
  for (let waited = 0; ; waited += POLL_MS) {
    const fresh = await partial(ctx, tabId, widget, widget.backendId);
    if (widget.role === 'combobox') {
      const shown = `${textOfValue(fresh?.value)} ${textOfValue(fresh?.name)}`;
      if (labels.every((l) => norm(shown).includes(norm(l)))) return;
    } else {
      const options = await visibleOptions(ctx, tabId, widget);
      const states = labels.map((l) => options.find((o) => norm(o.name) === norm(l))?.selected);
      if (states.every((s) => s === true)) return;
      if (states.every((s) => s === undefined))
        return void warnings.push('the options do not expose aria-selected: the choice could not be verified');
    }
    if (waited >= OPTIONS_WAIT_MS) break;
    await pause(ctx, POLL_MS);
  }
  fail(
    'INVALID_TARGET',
    `the ${widget.role} does not show ${labels.map((l) => JSON.stringify(l)).join(', ')} after the click: the page did not take the choice`,
    { reason: 'not_editable' },
  );
}

/** How long a combobox's suggestions may take to appear after typing (pages debounce their lookups). */
const SUGGESTIONS_WAIT_MS = 600;
const MAX_SUGGESTIONS = 50;

/** After typing into a combobox: the names of the options it shows (undefined for anything else). */
export async function comboboxSuggestions(
  ctx: ActionContext,
  tabId: number,
  target: TargetSpec,
): Promise<string[] | undefined> {
  const widget = await ariaWidgetOf(ctx, tabId, target);
  if (!widget || widget.role !== 'combobox') return undefined;
  try {
    for (let waited = 0; ; waited += POLL_MS) {
      const options = await visibleOptions(ctx, tabId, widget);
      if (options.length > 0 || waited >= SUGGESTIONS_WAIT_MS)
        return options.slice(0, MAX_SUGGESTIONS).map((o) => o.name);
      await pause(ctx, POLL_MS);
    }
  } catch {
    return undefined;
  }
}
