// Fetches what the page model is built from, over the tab's CDP session: the frame tree, one
// accessibility tree per frame (Accessibility.getFullAXTree with frameId; DOM.getFrameOwner places
// a child frame at its <iframe>), and per frame the few DOM attributes the accessibility tree does
// not carry (dom-extras.ts: aria-sort, aria-current, a link's target, an input's type). A frame in another process (a cross-site iframe
// under site isolation) is read through its child session (frame-sessions.ts) and placed at its
// <iframe> in the parent's tree the same way.
import type { AxNode } from './ax-tree.ts';
import type { AxFrameTree, DomExtras } from './ax-model.ts';
import { domExtras } from './dom-extras.ts';
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

function flatten(node: FrameTreeNode, out: FrameTreeNode[] = []): FrameTreeNode[] {
  for (const child of node.childFrames ?? []) {
    out.push(child);
    flatten(child, out);
  }
  return out;
}

/** A frame's DOM extras; none when they cannot be read (the tree alone still makes the model). */
const extrasOf = (send: CdpSend, frameId: string | undefined, sessionId?: string) =>
  domExtras(send, frameId, sessionId).catch(() => new Map<number, DomExtras>());

/** An out-of-process frame's tree (its own document; frames nested in it in the same process are not read). */
async function outOfProcessTree(send: CdpSend, frame: FrameSession): Promise<AxFrameTree> {
  const [tree, owner, extras] = await Promise.all([
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
    extrasOf(send, frame.frameId, frame.sessionId),
  ]);
  const out: AxFrameTree = {
    frameId: frame.frameId,
    nodes: tree.nodes,
    ownerBackendId: owner.backendNodeId,
    url: frame.url,
    sessionId: frame.sessionId,
    extras,
  };
  if (frame.parentSessionId) out.ownerSessionId = frame.parentSessionId;
  return out;
}

export async function takeAxSnapshot(
  send: CdpSend,
  outOfProcess: () => Promise<FrameSession[]> = async () => [],
): Promise<AxSnapshot> {
  const mainExtras = extrasOf(send, undefined);
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
    mainExtras,
    ...children.map(async (child): Promise<AxFrameTree | null> => {
      try {
        const [tree, owner, frameExtras] = await Promise.all([
          send<{ nodes: AxNode[] }>(
            'Accessibility.getFullAXTree',
            { frameId: child.frame.id },
            { timeoutMs: AX_TREE_TIMEOUT_MS },
          ),
          send<{ backendNodeId: number }>('DOM.getFrameOwner', { frameId: child.frame.id }),
          extrasOf(send, child.frame.id),
        ]);
        return {
          frameId: child.frame.id,
          nodes: tree.nodes,
          ownerBackendId: owner.backendNodeId,
          url: child.frame.url,
          extras: frameExtras,
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
