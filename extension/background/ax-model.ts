// The page model from Chrome's accessibility tree: every node a person could operate
// or read as a control, in document order, with its role, own accessible name, value and ARIA
// states. Child frames (in the tab's process or another) are inlined where their <iframe> sits; open shadow roots are already part
// of the tree Chrome builds. A modal dialog scopes the model to itself. Pure: the trees come from
// ax-snapshot.ts.
import type { IndexedElement } from '../page/page-ops.ts';
import { placeholderOf, propertiesOf, roleOfNode, textOfValue, type AxNode } from './ax-tree.ts';
import { statesOf } from './ax-states.ts';

/** Roles listed whether or not they are tab stops (menu items, tree items, grid cells, options...). */
export const LISTED_ROLES = new Set([
  'button',
  'link',
  'checkbox',
  'radio',
  'switch',
  'textbox',
  'searchbox',
  'combobox',
  'listbox',
  'option',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'tab',
  'treeitem',
  'gridcell',
  'slider',
  'spinbutton',
  'DisclosureTriangle',
  'ColorWell',
  'Date',
  'DateTime',
  'InputTime',
  'PopUpButton',
  'ToggleButton',
]);
/** Listed only when sortable or focusable. */
const HEADER_ROLES = new Set(['columnheader', 'rowheader']);
/** Focusable but never entries themselves: the document and frames. */
const NEVER_LISTED = new Set([
  'RootWebArea',
  'WebArea',
  'Iframe',
  'IframePresentational',
  'MenuListPopup',
  'LabelText',
  'StaticText',
  'InlineTextBox',
]);
/** Never entries and too many to look at (text runs): skipped before their properties are read. */
const SKIPPED = new Set(['StaticText', 'InlineTextBox', 'LineBreak', 'ListMarker']);
/** Roles whose name is what a form control is labelled with (`label`), not what it says (`text`). */
const FIELD_ROLES = new Set([
  'textbox',
  'searchbox',
  'combobox',
  'listbox',
  'checkbox',
  'radio',
  'switch',
  'slider',
  'spinbutton',
]);
const NAME_MAX_CHARS = 160;

/** DOM attributes the accessibility tree does not carry, by backend node id (ax-snapshot.ts reads them). */
export interface DomExtras {
  sort?: 'ascending' | 'descending' | 'other';
  current?: string;
  target?: string;
  /** The type of an <input> the tree shows as a plain textbox (password, email, url, tel, date...). */
  type?: string;
  /** A form field's name attribute. */
  name?: string;
  /** A native <select multiple> (a listbox in the tree): one entry with its options. */
  multipleSelect?: true;
}

export interface AxFrameTree {
  frameId: string;
  nodes: AxNode[];
  /** Backend node id of the <iframe> in the parent frame's tree (child frames only). */
  ownerBackendId?: number;
  /** The frame's URL, named on entries when the <iframe> has no accessible name. */
  url?: string;
  /** The child session of a frame in another process (its backend node ids are that process's own). */
  sessionId?: string;
  /** A frame nested in an out-of-process frame, in its process: that frame's id (whose session `sessionId` is). */
  sessionFrameId?: string;
  /** The session whose tree holds this frame's <iframe> (undefined: the tab's own). */
  ownerSessionId?: string;
  /** This frame's DOM extras (a child frame's; the main frame's come as axModel's `extras`). */
  extras?: ReadonlyMap<number, DomExtras>;
}

export interface AxEntry {
  backendId: number;
  frameId: string;
  /** The child session of an out-of-process frame the node lives in. */
  sessionId?: string;
  /** The out-of-process frame whose session that is, when the node's frame is nested in it. */
  sessionFrameId?: string;
  element: Omit<IndexedElement, 'clickId'>;
  /** A checkbox or radio with no name of its own (named by its row): ax-index.ts drops it when it is a pixel wide. */
  unnamedToggle?: true;
  /** Behind the open modal: not listed, but kept in the ref table so acting on it says why it cannot. */
  behindModal?: true;
}

export interface AxModel {
  entries: AxEntry[];
  modal?: { role: string; name?: string };
}

const clip = (text: string, max = NAME_MAX_CHARS) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function byId(nodes: AxNode[]): { map: Map<string, AxNode>; root: AxNode | undefined } {
  const map = new Map<string, AxNode>();
  for (const node of nodes) map.set(node.nodeId, node);
  const root = nodes.find((n) => n.parentId === undefined || !map.has(n.parentId));
  return { map, root };
}

/** The top-most open modal dialog of the main frame (the last one in document order), if any. */
function findModal(tree: AxFrameTree): AxNode | undefined {
  const candidates = tree.nodes.filter(
    (n) => !n.ignored && n.properties?.some((p) => p.name === 'modal' && p.value.value === true),
  );
  if (candidates.length <= 1) return candidates[0];
  // Several: the last in document order (nodes come breadth-first, so walk the tree).
  const wanted = new Set(candidates);
  const { map, root } = byId(tree.nodes);
  let last: AxNode | undefined;
  const walk = (node: AxNode): void => {
    if (wanted.has(node)) last = node;
    for (const id of node.childIds ?? []) {
      const child = map.get(id);
      if (child) walk(child);
    }
  };
  if (root) walk(root);
  return last;
}

function isListed(node: AxNode, props: Map<string, unknown>, extras: DomExtras | undefined): boolean {
  const role = roleOfNode(node);
  if (NEVER_LISTED.has(role)) return false;
  if (LISTED_ROLES.has(role)) return true;
  if (HEADER_ROLES.has(role)) return extras?.sort !== undefined || props.get('focusable') === true;
  // The root of an editable region (contenteditable: its descendants are editable but not focusable).
  if (props.get('editable') !== undefined && props.get('focusable') === true) return true;
  // Any other tab stop with a name (a div with tabindex and a label).
  return props.get('focusable') === true && textOfValue(node.name) !== '' && role !== 'generic' && role !== 'none';
}

/**
 * The option nodes below a native select's popup (or a multiple select): its children, and those
 * of the ignored wrappers and groups (<optgroup>) between (Chromium 156 puts an ignored node
 * between a select's popup and its options).
 */
function optionNodes(parent: AxNode, map: Map<string, AxNode>, out: AxNode[] = [], depth = 0): AxNode[] {
  for (const id of parent.childIds ?? []) {
    const child = map.get(id);
    if (!child || out.length >= 50) continue;
    const role = roleOfNode(child);
    if (role === 'option') out.push(child);
    else if (depth < 3 && (child.ignored || role === 'none' || role === 'generic' || role === 'group'))
      optionNodes(child, map, out, depth + 1);
  }
  return out;
}

/** The options of a native select (its popup's, or a multiple select's own). */
function optionsOf(parent: AxNode, map: Map<string, AxNode>): NonNullable<IndexedElement['options']> {
  return optionNodes(parent, map).map((o) => {
    const label = clip(textOfValue(o.name));
    const option: NonNullable<IndexedElement['options']>[number] = { value: label, label };
    const p = propertiesOf(o);
    if (p.get('selected') === true) option.selected = true;
    if (p.get('disabled') === true) option.disabled = true;
    return option;
  });
}

/** Backend ids of <label>s that name a control in the tree (their `labelledby`). */
function labellingIds(nodes: AxNode[]): Set<number> {
  const ids = new Set<number>();
  for (const node of nodes) {
    for (const property of node.properties ?? []) {
      if (property.name !== 'labelledby') continue;
      for (const related of property.value.relatedNodes ?? [])
        if (related.backendDOMNodeId !== undefined) ids.add(related.backendDOMNodeId);
    }
  }
  return ids;
}

/** The text of a node's StaticText descendants (a LabelText node has no name of its own). */
function textBelow(node: AxNode, map: Map<string, AxNode>, depth = 0): string {
  if (depth > 8) return '';
  const parts: string[] = [];
  for (const id of node.childIds ?? []) {
    const child = map.get(id);
    if (!child || child.ignored) continue;
    parts.push(roleOfNode(child) === 'StaticText' ? textOfValue(child.name) : textBelow(child, map, depth + 1));
  }
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

/** The text of the nearest ancestor (up to 3 levels) that has some. */
function rowText(node: AxNode, map: Map<string, AxNode>): string {
  let parent = node.parentId !== undefined ? map.get(node.parentId) : undefined;
  for (
    let depth = 0;
    parent && depth < 3;
    depth++, parent = parent.parentId !== undefined ? map.get(parent.parentId) : undefined
  ) {
    const text = clip(textBelow(parent, map), 100);
    if (text) return text;
  }
  return '';
}

/**
 * A <label> whose control is not in the tree (display:none behind a styled label, as custom
 * checkboxes do) or that has no control (TodoMVC's titles, double-clicked to edit): the label is
 * what a person operates, so it is listed (tag "label", no role), as the DOM index did.
 */
function orphanLabel(
  node: AxNode,
  map: Map<string, AxNode>,
  labelling: Set<number>,
): Omit<IndexedElement, 'clickId'> | null {
  if (node.backendDOMNodeId === undefined || labelling.has(node.backendDOMNodeId)) return null;
  const text = clip(textBelow(node, map));
  return text ? { tag: 'label', text } : null;
}

/** The tag a consumer would expect for the role, when the tree implies it; otherwise the role itself. */
function tagOf(role: string, props: Map<string, unknown>, nativeSelect: boolean): string {
  if (nativeSelect) return 'select';
  if (role === 'link') return 'a';
  if (role === 'button' || role === 'PopUpButton' || role === 'ToggleButton') return 'button';
  if (role === 'DisclosureTriangle') return 'summary';
  if (props.get('editable') === 'plaintext') return props.get('multiline') === true ? 'textarea' : 'input';
  return role;
}

function entryOf(
  node: AxNode,
  props: Map<string, unknown>,
  map: Map<string, AxNode>,
  extras: DomExtras | undefined,
  frameLabel: string | undefined,
): Omit<IndexedElement, 'clickId'> {
  const rawRole = roleOfNode(node);
  const popup = (node.childIds ?? []).map((id) => map.get(id)).find((c) => c && roleOfNode(c) === 'MenuListPopup');
  const richText = (rawRole === 'generic' || rawRole === 'none') && props.get('editable') === 'richtext';
  const role =
    rawRole === 'DisclosureTriangle'
      ? 'button'
      : rawRole === 'PopUpButton'
        ? 'combobox'
        : rawRole === 'ToggleButton'
          ? 'button'
          : richText
            ? 'textbox'
            : rawRole;
  const element: Omit<IndexedElement, 'clickId'> = { tag: tagOf(rawRole, props, popup !== undefined), role };
  // A checkbox or radio with no name of its own (TodoMVC's toggles) is named by its row, as the DOM index did.
  const name =
    clip(textOfValue(node.name)) ||
    (role === 'checkbox' || role === 'radio' || role === 'switch' ? rowText(node, map) : '');
  if (name) {
    if (FIELD_ROLES.has(role)) element.label = name;
    else element.text = name;
  }
  const placeholder = placeholderOf(node);
  if (placeholder) element.placeholder = clip(placeholder);
  if (typeof props.get('url') === 'string' && role === 'link') element.href = clip(props.get('url') as string, 2_000);
  Object.assign(element, statesOf(node, props, extras));
  if (role === 'searchbox') element.type = 'search';
  if (extras?.type) {
    element.type = extras.type;
    element.tag = 'input';
  }
  if (extras?.name) element.name = extras.name;
  if (extras?.multipleSelect) {
    element.tag = 'select';
    element.options = optionsOf(node, map);
  }
  // min / max as the DOM index gave them (strings).
  if ((role === 'slider' || role === 'spinbutton') && element.valueMin !== undefined)
    element.min = String(element.valueMin);
  if ((role === 'slider' || role === 'spinbutton') && element.valueMax !== undefined)
    element.max = String(element.valueMax);
  if (popup) element.options = optionsOf(popup, map);
  if (props.get('multiselectable') === true) element.multiple = true;
  if (extras?.target) element.target = extras.target;
  if (frameLabel) element.frame = frameLabel;
  return element;
}

/**
 * Entries of the main frame's tree with each child frame inlined at its <iframe>. With a modal
 * dialog open, only what is inside it.
 */
export function axModel(frames: AxFrameTree[], extras: ReadonlyMap<number, DomExtras> = new Map()): AxModel {
  const main = frames[0];
  if (!main) return { entries: [] };
  // Backend node ids are per renderer process: an <iframe> is keyed by its tree's session too.
  const ownerKey = (sessionId: string | undefined, backendId: number) => `${sessionId ?? ''}:${backendId}`;
  const childByOwner = new Map<string, AxFrameTree>();
  for (const frame of frames.slice(1))
    if (frame.ownerBackendId !== undefined)
      childByOwner.set(ownerKey(frame.ownerSessionId, frame.ownerBackendId), frame);
  const modalNode = findModal(main);
  const entries: AxEntry[] = [];
  const seen = new Set<string>();
  let passedModal = false;

  const walkFrame = (tree: AxFrameTree, frameLabel: string | undefined, inScope: boolean): void => {
    const { map, root } = byId(tree.nodes);
    const labelling = labellingIds(tree.nodes);
    const walk = (node: AxNode, scoped: boolean): void => {
      const key = `${tree.frameId}:${node.nodeId}`;
      if (seen.has(key)) return;
      seen.add(key);
      const inside = scoped || node === modalNode || passedModal;
      const role = roleOfNode(node);
      const props =
        node.ignored || node.backendDOMNodeId === undefined || SKIPPED.has(role) ? null : propertiesOf(node);
      const extra = props ? (tree === main ? extras : tree.extras)?.get(node.backendDOMNodeId!) : undefined;
      const element = !props
        ? null
        : role === 'LabelText'
          ? orphanLabel(node, map, labelling)
          : isListed(node, props, extra)
            ? entryOf(node, props, map, extra, frameLabel)
            : null;
      if (element) {
        if (frameLabel && !element.frame) element.frame = frameLabel;
        const entry: AxEntry = { backendId: node.backendDOMNodeId!, frameId: tree.frameId, element };
        if (tree.sessionId) entry.sessionId = tree.sessionId;
        if (tree.sessionFrameId) entry.sessionFrameId = tree.sessionFrameId;
        if (!inside) entry.behindModal = true;
        if ((role === 'checkbox' || role === 'radio') && !textOfValue(node.name)) entry.unnamedToggle = true;
        entries.push(entry);
      }
      // A native <select>'s options are its `options`, not entries of their own.
      if (role === 'MenuListPopup' || extra?.multipleSelect) return;
      if ((role === 'Iframe' || role === 'IframePresentational') && node.backendDOMNodeId !== undefined) {
        const child = childByOwner.get(ownerKey(tree.sessionId, node.backendDOMNodeId));
        if (child && !node.ignored) walkFrame(child, textOfValue(node.name) || child.url || 'iframe', inside);
      }
      for (const id of node.childIds ?? []) {
        const next = map.get(id);
        if (next) walk(next, inside);
      }
      if (node === modalNode) passedModal = true;
    };
    if (root) walk(root, inScope);
  };
  // Pop-ups a dialog opens are often rendered after it (portals): what follows the modal is in scope.
  walkFrame(main, undefined, modalNode === undefined);
  const model: AxModel = { entries };
  if (modalNode) {
    model.modal = { role: roleOfNode(modalNode) };
    const name = textOfValue(modalNode.name);
    if (name) model.modal.name = clip(name);
  }
  return model;
}
