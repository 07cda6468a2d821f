// Fetches what the page model is built from, over the tab's CDP session: the frame tree, one
// accessibility tree per frame (Accessibility.getFullAXTree with frameId; DOM.getFrameOwner places
// a child frame at its <iframe>), and per frame the few DOM attributes the accessibility tree does
// not carry (dom-extras.ts: aria-sort, aria-current, a link's target, an input's type). A frame in another process (a cross-site iframe
// under site isolation) is read through its child session (frame-sessions.ts) and placed at its
// <iframe> in the parent's tree the same way, and so are the frames nested in it, in its process
// (that session's frame tree) or in yet another (a session of their own).
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

/** The frames below `node` in its process (an out-of-process frame and what it holds are read through its own session). */
function localChildren(
  node: FrameTreeNode,
  remoteIds: ReadonlySet<string>,
  out: FrameTreeNode[] = [],
): FrameTreeNode[] {
  for (const child of node.childFrames ?? []) {
    if (remoteIds.has(child.frame.id)) continue;
    out.push(child);
    localChildren(child, remoteIds, out);
  }
  return out;
}

/** A frame's DOM extras; none when they cannot be read (the tree alone still makes the model). */
const extrasOf = (send: CdpSend, frameId: string | undefined, sessionId?: string) =>
  domExtras(send, frameId, sessionId).catch(() => new Map<number, DomExtras>());

/** A frame's tree, the <iframe> it sits at, and its DOM extras, in the session (undefined: the tab's own) of its process. */
async function readFrame(
  send: CdpSend,
  frameId: string,
  url: string,
  sessionId: string | undefined,
  ownerSessionId: string | undefined,
): Promise<AxFrameTree> {
  const options = sessionId ? { sessionId } : undefined;
  const [tree, owner, extras] = await Promise.all([
    send<{ nodes: AxNode[] }>(
      'Accessibility.getFullAXTree',
      { frameId },
      { ...options, timeoutMs: AX_TREE_TIMEOUT_MS },
    ),
    send<{ backendNodeId: number }>(
      'DOM.getFrameOwner',
      { frameId },
      ownerSessionId ? { sessionId: ownerSessionId } : undefined,
    ),
    extrasOf(send, frameId, sessionId),
  ]);
  const out: AxFrameTree = { frameId, nodes: tree.nodes, ownerBackendId: owner.backendNodeId, url, extras };
  if (sessionId) out.sessionId = sessionId;
  if (ownerSessionId) out.ownerSessionId = ownerSessionId;
  return out;
}

/**
 * An out-of-process frame's tree and those of the frames nested in it in its own process (its
 * session's frame tree; a nested frame in yet another process has a session of its own).
 */
async function outOfProcessTrees(
  send: CdpSend,
  frame: FrameSession,
  remoteIds: ReadonlySet<string>,
  warnings: string[],
): Promise<AxFrameTree[]> {
  const session = { sessionId: frame.sessionId };
  const [own, nested] = await Promise.all([
    readFrame(send, frame.frameId, frame.url, frame.sessionId, frame.parentSessionId),
    send<{ frameTree: FrameTreeNode }>('Page.getFrameTree', {}, session).then(
      ({ frameTree: tree }) => localChildren(tree, remoteIds),
      () => [] as FrameTreeNode[],
    ),
  ]);
  const trees = await Promise.all(
    nested.map((child) =>
      readFrame(send, child.frame.id, child.frame.url, frame.sessionId, frame.sessionId).then(
        (tree): AxFrameTree => ({ ...tree, sessionFrameId: frame.frameId }),
        () => {
          warnings.push(unreadable(child.frame.url));
          return null;
        },
      ),
    ),
  );
  return [own, ...trees.filter((t): t is AxFrameTree => t !== null)];
}

const unreadable = (url: string) =>
  `the frame ${url.slice(0, 200)} could not be read: its content is not in the page model`;

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
  const children = localChildren(frameTree, remoteIds);
  const [main, extras, ...childTrees] = await Promise.all([
    send<{ nodes: AxNode[] }>(
      'Accessibility.getFullAXTree',
      { frameId: frameTree.frame.id },
      { timeoutMs: AX_TREE_TIMEOUT_MS },
    ),
    mainExtras,
    ...children.map((child) =>
      readFrame(send, child.frame.id, child.frame.url, undefined, undefined).then(
        (tree): AxFrameTree[] => [tree],
        () => (warnings.push(unreadable(child.frame.url)), []),
      ),
    ),
    ...remote.map((frame) =>
      outOfProcessTrees(send, frame, remoteIds, warnings).catch(() => {
        warnings.push(
          `the frame ${frame.url.slice(0, 200)} runs in another process and could not be read: its content is not in the page model`,
        );
        return [] as AxFrameTree[];
      }),
    ),
  ]);
  const frames: AxFrameTree[] = [{ frameId: frameTree.frame.id, nodes: main.nodes, url: frameTree.frame.url }];
  for (const trees of childTrees) frames.push(...trees);
  return { frames, extras, loaderId: frameTree.frame.loaderId, warnings };
}
