// browser_dom_index from the accessibility tree: the model of ax-model.ts, numbered
// with stable clickIds (element-refs.ts recordAx: a node keeps its id while it lives in the same
// document), scoped by an open modal dialog. Throws CdpError when the debugger cannot be used:
// the handler then falls back to the DOM heuristic and says so.
import type { AxRefNode } from '../page/page-ops.ts';
import type { ActionContext } from './action-context.ts';
import type { ActionResultMap } from '../../transport/contracts/index.ts';
import { axModel, type AxEntry } from './ax-model.ts';
import { takeAxSnapshot } from './ax-snapshot.ts';

/** Entries beyond this are left out with a warning (a page of 5,000 controls is already far past any budget). */
export const MAX_AX_ELEMENTS = 5_000;

/** Unnamed toggles whose box is checked (one DOM.getBoxModel each). */
const MAX_BOX_CHECKS = 50;

/**
 * An unnamed checkbox or radio a pixel or two wide, transparent or not, is not what a person
 * clicks (TodoMVC es6's toggle-all: its app listens on a label that does not even point at it);
 * its row's label is listed instead. A wider one (TodoMVC's todo toggles, opacity 0 over a drawn
 * box) is kept.
 */
async function pixelWide(ctx: ActionContext, tabId: number, entries: AxEntry[]): Promise<Set<AxEntry>> {
  const tiny = new Set<AxEntry>();
  await Promise.all(
    entries.map(async (entry) => {
      const box = await ctx.cdp
        .send<{ model: { width: number; height: number } }>(
          tabId,
          'DOM.getBoxModel',
          { backendNodeId: entry.backendId },
          entry.sessionId ? { sessionId: entry.sessionId } : undefined,
        )
        .catch(() => null);
      if (box && (box.model.width <= 2 || box.model.height <= 2)) tiny.add(entry);
    }),
  );
  return tiny;
}

/** The ref table's record of an entry: its node, frame, and the out-of-process frame whose session reaches it. */
function refOf(entry: AxEntry): AxRefNode {
  const ref: AxRefNode = { b: entry.backendId, f: entry.frameId };
  if (entry.sessionId) ref.o = 1;
  if (entry.sessionFrameId) ref.t = entry.sessionFrameId;
  return ref;
}

export async function axIndex(ctx: ActionContext, tabId: number): Promise<ActionResultMap['browser_dom_index']> {
  await ctx.cdp.attach(tabId);
  const snapshot = await takeAxSnapshot(
    (method, params, options) => ctx.cdp.send(tabId, method, params, options),
    () => ctx.cdp.frames.list(tabId),
  );
  const model = axModel(snapshot.frames, snapshot.extras);
  const tiny = await pixelWide(ctx, tabId, model.entries.filter((e) => e.unnamedToggle).slice(0, MAX_BOX_CHECKS));
  // Nodes behind an open modal keep their refs (acting on one says why it cannot) but are not listed.
  const kept = model.entries.slice(0, MAX_AX_ELEMENTS);
  const ids = await ctx.refs.recordAx(
    tabId,
    snapshot.loaderId,
    kept.map((e) => refOf(e)),
  );
  const elements = kept.flatMap((entry, i) =>
    entry.behindModal || tiny.has(entry) ? [] : [{ clickId: ids[i]!, ...entry.element }],
  );
  const warnings = [...snapshot.warnings];
  if (model.entries.length > kept.length)
    warnings.push(`only the first ${kept.length} of ${model.entries.length} elements were indexed`);
  if (model.modal)
    warnings.push(
      `a modal ${model.modal.role}${model.modal.name ? ` "${model.modal.name}"` : ''} is open: only its content is listed, and the page behind it cannot be used until it closes`,
    );
  const result: ActionResultMap['browser_dom_index'] = { elements, source: 'ax' };
  if (model.modal) result.modal = model.modal;
  if (warnings.length > 0) result.warnings = warnings;
  return result;
}
