// browser_dom_index from the accessibility tree (issue 21): the model of ax-model.ts, numbered
// with stable clickIds (element-refs.ts recordAx: a node keeps its id while it lives in the same
// document), scoped by an open modal dialog. Throws CdpError when the debugger cannot be used:
// the handler then falls back to the DOM heuristic and says so.
import type { ActionContext } from './action-context.ts';
import type { ActionResultMap } from '../../transport/contracts/index.ts';
import { axModel } from './ax-model.ts';
import { takeAxSnapshot } from './ax-snapshot.ts';

/** Entries beyond this are left out with a warning (a page of 5,000 controls is already far past any budget). */
export const MAX_AX_ELEMENTS = 5_000;

export async function axIndex(ctx: ActionContext, tabId: number): Promise<ActionResultMap['browser_dom_index']> {
  await ctx.cdp.attach(tabId);
  const snapshot = await takeAxSnapshot((method, params, options) => ctx.cdp.send(tabId, method, params, options));
  const model = axModel(snapshot.frames, snapshot.extras);
  // Nodes behind an open modal keep their refs (acting on one says why it cannot) but are not listed.
  const kept = model.entries.slice(0, MAX_AX_ELEMENTS);
  const ids = await ctx.refs.recordAx(tabId, snapshot.loaderId, kept.map((e) => ({ b: e.backendId, f: e.frameId })));
  const elements = kept.flatMap((entry, i) => (entry.behindModal ? [] : [{ clickId: ids[i]!, ...entry.element }]));
  const warnings = [...snapshot.warnings];
  if (model.entries.length > kept.length) warnings.push(`only the first ${kept.length} of ${model.entries.length} elements were indexed`);
  if (model.modal) warnings.push(`a modal ${model.modal.role}${model.modal.name ? ` "${model.modal.name}"` : ''} is open: only its content is listed, and the page behind it cannot be used until it closes`);
  const result: ActionResultMap['browser_dom_index'] = { elements, source: 'ax' };
  if (model.modal) result.modal = model.modal;
  if (warnings.length > 0) result.warnings = warnings;
  return result;
}
