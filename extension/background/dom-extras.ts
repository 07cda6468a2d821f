// The few DOM attributes the accessibility tree does not carry (aria-sort, aria-current, a link's
// target, an input's type and a field's name, a native multiple select), read in one frame's
// document and its open shadow roots: one query (in an isolated world of a child frame; in the
// main frame's own world, with the prototypes' querySelectorAll), then DOM.describeNode of each
// match for its backend node id. Works in any frame, in the tab's process or another (its session).
import type { DomExtras } from './ax-model.ts';
import type { CdpSend } from './ax-snapshot.ts';

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

const WORLD_NAME = 'mimo-dom-extras';
const OBJECT_GROUP = 'mimo-dom-extras';

/** Runs in the frame: the matches of both selectors in the document and its open shadow roots, bounded. */
const FIND_FUNCTION = `(typedSelector, otherSelector, maxTyped, maxOther) => {
  const roots = [document];
  const typed = [];
  const other = [];
  const query = Document.prototype.querySelectorAll;
  const queryIn = DocumentFragment.prototype.querySelectorAll;
  for (let i = 0; i < roots.length && i < 5000; i++) {
    const root = roots[i];
    const all = (selector) => (root === document ? query : queryIn).call(root, selector);
    for (const el of all(typedSelector)) if (typed.length < maxTyped) typed.push(el);
    for (const el of all(otherSelector)) if (other.length < maxOther) other.push(el);
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    while (walker.nextNode()) if (walker.currentNode.shadowRoot) roots.push(walker.currentNode.shadowRoot);
  }
  return typed.concat(other);
}`;

interface Described {
  node: { backendNodeId: number; nodeName: string; attributes?: string[] };
}

function extraOf(described: Described): DomExtras {
  const attrs = described.node.attributes ?? [];
  const extra: DomExtras = {};
  for (let i = 0; i + 1 < attrs.length; i += 2) {
    const [name, value] = [attrs[i]!, attrs[i + 1]!.trim()];
    if (name === 'aria-sort' && SORTS.has(value)) extra.sort = value as DomExtras['sort'];
    else if (name === 'aria-current' && value !== '' && value !== 'false') extra.current = value;
    else if (name === 'target' && value !== '' && value !== '_self') extra.target = value;
    else if (name === 'type' && TYPED_INPUTS.includes(value.toLowerCase())) extra.type = value.toLowerCase();
    else if (name === 'name' && value !== '') extra.name = value.slice(0, 200);
    else if (name === 'multiple' && described.node.nodeName === 'SELECT') extra.multipleSelect = true;
  }
  return extra;
}

/**
 * The extras of `frameId`'s document by backend node id. Typed inputs come first (password fields
 * above all: the tree cannot tell an empty one from a text field, and the runtime must know them
 * to keep what is typed there secret).
 */
export async function domExtras(
  send: CdpSend,
  frameId: string | undefined,
  sessionId?: string,
): Promise<Map<number, DomExtras>> {
  const options = sessionId ? { sessionId } : undefined;
  const extras = new Map<number, DomExtras>();
  // The main frame's document is read in the page's own world (no world to create first: the
  // query then runs before the accessibility tree is built, and only the descriptions wait for it).
  const world =
    frameId === undefined
      ? undefined
      : await send<{ executionContextId: number }>(
          'Page.createIsolatedWorld',
          { frameId, worldName: WORLD_NAME },
          options,
        );
  const args = [TYPED_SELECTOR, EXTRAS_SELECTOR, MAX_TYPED, MAX_EXTRAS].map((a) => JSON.stringify(a)).join(', ');
  try {
    const found = await send<{ result: { objectId?: string } }>(
      'Runtime.evaluate',
      {
        expression: `(${FIND_FUNCTION})(${args})`,
        objectGroup: OBJECT_GROUP,
        ...(world ? { contextId: world.executionContextId } : {}),
      },
      options,
    );
    if (!found.result.objectId) return extras;
    const { result } = await send<{ result: Array<{ name: string; value?: { objectId?: string } }> }>(
      'Runtime.getProperties',
      { objectId: found.result.objectId, ownProperties: true },
      options,
    );
    const elements = result.filter((p) => /^\d+$/.test(p.name) && p.value?.objectId);
    const described = await Promise.all(
      elements.map((p) =>
        send<Described>('DOM.describeNode', { objectId: p.value!.objectId }, options).catch(() => null),
      ),
    );
    for (const one of described) {
      if (!one) continue;
      const extra = extraOf(one);
      if (Object.keys(extra).length > 0) extras.set(one.node.backendNodeId, extra);
    }
    return extras;
  } finally {
    void send('Runtime.releaseObjectGroup', { objectGroup: OBJECT_GROUP }, options).catch(() => {});
  }
}
