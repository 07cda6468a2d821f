// Fetches what the page model is built from, over the tab's CDP session: the frame tree, one
// accessibility tree per frame (Accessibility.getFullAXTree with frameId; DOM.getFrameOwner places
// a child frame at its <iframe>), and the few DOM attributes the accessibility tree does not carry
// (aria-sort, aria-current, a link's target). A frame in another process (a cross-site iframe
// under site isolation) is read through its child session (frame-sessions.ts) and placed at its
// <iframe> in the parent's tree the same way.
import type { AxNode } from './ax-tree.ts';
import type { AxFrameTree, DomExtras } from './ax-model.ts';
import type { FrameSession } from './frame-sessions.ts';

export type CdpSend = <T = unknown>(
  method: string,
  params?: Record<string, unknown>,
  options?: { timeoutMs?: number; sessionId?: string },
) => Promise<T>;

/** Chrome builds the tree of a page of thousands of controls in seconds on a loaded machine: beyond the usual 5 s command bound. */
export const AX_TREE_TIMEOUT_MS = 20_000;

interface FrameTreeNode {
  frame: { id: string; loaderId: string; url: string; name?: string };
  childFrames?: FrameTreeNode[];
}

export interface AxSnapshot {
  frames: AxFrameTree[];
  extras: Map<number, DomExtras>;
  /** The main frame's document (a new document gets a new loaderId: refs of the old one are stale). */
  loaderId: string;
  warnings: string[];
}

/** DOM attributes read beside the tree; bounded so a page of a thousand target=_blank links stays cheap. */
const EXTRAS_SELECTOR = '[aria-sort],[aria-current]:not([aria-current="false"]),a[target]:not([target="_self"])';
const MAX_EXTRAS = 200;
/** Input types the tree does not tell apart from a text field (a checkbox, a range or a number it does). */
const TYPED_INPUTS = [
  'password',
  'email',
  'url',
  'tel',
  'date',
  'time',
  'datetime-local',
  'month',
  'week',
  'color',
  'file',
  'range',
  'number',
];
/** Also form fields' `name` attributes (planners match them) and native multiple selects. */
const TYPED_SELECTOR = [
  ...TYPED_INPUTS.map((t) => `input[type="${t}" i]`),
  'input[name]',
  'select[name]',
  'textarea[name]',
  'select[multiple]',
].join(',');
const MAX_TYPED = 500;
const SORTS = new Set(['ascending', 'descending', 'other']);

function flatten(node: FrameTreeNode, out: FrameTreeNode[] = []): FrameTreeNode[] {
  for (const child of node.childFrames ?? []) {
    out.push(child);
    flatten(child, out);
  }
  return out;
}

async function domExtras(send: CdpSend): Promise<Map<number, DomExtras>> {
  const extras = new Map<number, DomExtras>();
  const { root } = await send<{ root: { nodeId: number } }>('DOM.getDocument', { depth: 0 });
  // Typed inputs first (password fields above all: the tree cannot tell an empty one from a text
  // field, and the runtime must know them to keep what is typed there secret).
  const [typed, others] = await Promise.all(
    [TYPED_SELECTOR, EXTRAS_SELECTOR].map((selector) =>
      send<{ nodeIds: number[] }>('DOM.querySelectorAll', { nodeId: root.nodeId, selector }),
    ),
  );
  const nodeIds = [...typed!.nodeIds.slice(0, MAX_TYPED), ...others!.nodeIds.slice(0, MAX_EXTRAS)];
  const described = await Promise.all(
    nodeIds.map((nodeId) =>
      send<{ node: { backendNodeId: number; nodeName: string; attributes?: string[] } }>('DOM.describeNode', {
        nodeId,
      }).catch(() => null),
    ),
  );
  for (const result of described) {
    if (!result) continue;
    const attrs = result.node.attributes ?? [];
    const extra: DomExtras = {};
    for (let i = 0; i + 1 < attrs.length; i += 2) {
      const [name, value] = [attrs[i]!, attrs[i + 1]!.trim()];
      if (name === 'aria-sort' && SORTS.has(value)) extra.sort = value as DomExtras['sort'];
      else if (name === 'aria-current' && value !== '' && value !== 'false') extra.current = value;
      else if (name === 'target' && value !== '' && value !== '_self') extra.target = value;
      else if (name === 'type' && TYPED_INPUTS.includes(value.toLowerCase())) extra.type = value.toLowerCase();
      else if (name === 'name' && value !== '') extra.name = value.slice(0, 200);
      else if (name === 'multiple' && result.node.nodeName === 'SELECT') extra.multipleSelect = true;
    }
    if (Object.keys(extra).length > 0) extras.set(result.node.backendNodeId, extra);
  }
  return extras;
}

/** An out-of-process frame's tree (its own document; frames nested in it in the same process are not read). */
async function outOfProcessTree(send: CdpSend, frame: FrameSession): Promise<AxFrameTree> {
  const [tree, owner] = await Promise.all([
    send<{ nodes: AxNode[] }>(
      'Accessibility.getFullAXTree',
      {},
      { timeoutMs: AX_TREE_TIMEOUT_MS, sessionId: frame.sessionId },
    ),
    send<{ backendNodeId: number }>(
      'DOM.getFrameOwner',
      { frameId: frame.frameId },
      frame.parentSessionId ? { sessionId: frame.parentSessionId } : undefined,
    ),
  ]);
  const out: AxFrameTree = {
    frameId: frame.frameId,
    nodes: tree.nodes,
    ownerBackendId: owner.backendNodeId,
    url: frame.url,
    sessionId: frame.sessionId,
  };
  if (frame.parentSessionId) out.ownerSessionId = frame.parentSessionId;
  return out;
}

export async function takeAxSnapshot(
  send: CdpSend,
  outOfProcess: () => Promise<FrameSession[]> = async () => [],
): Promise<AxSnapshot> {
  const [{ frameTree }, remote] = await Promise.all([
    send<{ frameTree: FrameTreeNode }>('Page.getFrameTree'),
    outOfProcess().catch(() => [] as FrameSession[]),
  ]);
  const warnings: string[] = [];
  const remoteIds = new Set(remote.map((f) => f.frameId));
  const children = flatten(frameTree).filter((child) => !remoteIds.has(child.frame.id));
  const [main, extras, ...childTrees] = await Promise.all([
    send<{ nodes: AxNode[] }>(
      'Accessibility.getFullAXTree',
      { frameId: frameTree.frame.id },
      { timeoutMs: AX_TREE_TIMEOUT_MS },
    ),
    domExtras(send).catch(() => new Map<number, DomExtras>()),
    ...children.map(async (child): Promise<AxFrameTree | null> => {
      try {
        const [tree, owner] = await Promise.all([
          send<{ nodes: AxNode[] }>(
            'Accessibility.getFullAXTree',
            { frameId: child.frame.id },
            { timeoutMs: AX_TREE_TIMEOUT_MS },
          ),
          send<{ backendNodeId: number }>('DOM.getFrameOwner', { frameId: child.frame.id }),
        ]);
        return {
          frameId: child.frame.id,
          nodes: tree.nodes,
          ownerBackendId: owner.backendNodeId,
          url: child.frame.url,
        };
      } catch {
        warnings.push(
          `the frame ${child.frame.url.slice(0, 200)} could not be read: its content is not in the page model`,
        );
        return null;
      }
    }),
    ...remote.map((frame) =>
      outOfProcessTree(send, frame).catch(() => {
        warnings.push(
          `the frame ${frame.url.slice(0, 200)} runs in another process and could not be read: its content is not in the page model`,
        );
        return null;
      }),
    ),
  ]);
  const frames: AxFrameTree[] = [{ frameId: frameTree.frame.id, nodes: main.nodes, url: frameTree.frame.url }];
  for (const tree of childTrees) if (tree) frames.push(tree);
  return { frames, extras, loaderId: frameTree.frame.loaderId, warnings };
}
