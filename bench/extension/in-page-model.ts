// The page model computed by a script in the page, for snapshot-redesigns.ts only (not used by
// the extension): every visible element whose role (dom-accessibility-api's, after the ARIA in HTML
// mapping) is one ax-model.ts lists, with its accessible name (accname 1.2), value and ARIA states,
// through open shadow roots and same-origin frames. What Chrome knows and a page script does not
// (ElementInternals' default roles, names from CSS generated content) is out of its reach.
import { computeAccessibleName, getRole } from 'dom-accessibility-api';

const LISTED = new Set(
  'button link checkbox radio switch textbox searchbox combobox listbox option menuitem menuitemcheckbox menuitemradio tab treeitem gridcell slider spinbutton columnheader dialog alertdialog'.split(
    ' ',
  ),
);
const STATES = ['checked', 'expanded', 'selected', 'pressed', 'disabled', 'required', 'invalid', 'valuenow', 'level'];

interface InPageEntry {
  role: string;
  name: string;
  value?: string;
  states: Record<string, string>;
}

function visit(root: Document | ShadowRoot, out: InPageEntry[]): void {
  const doc = root instanceof Document ? root : root.ownerDocument;
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
  for (let node = walker.nextNode() as Element | null; node; node = walker.nextNode() as Element | null) {
    if (node.shadowRoot) visit(node.shadowRoot, out);
    if (node.localName === 'iframe') {
      const inner = (node as HTMLIFrameElement).contentDocument;
      if (inner) visit(inner, out);
    }
    const role = getRole(node);
    if (!role || !LISTED.has(role) || !node.checkVisibility()) continue;
    const states: Record<string, string> = {};
    for (const state of STATES) {
      const value = node.getAttribute(`aria-${state}`);
      if (value !== null) states[state] = value;
    }
    if ((node as HTMLInputElement).checked) states.checked = 'true';
    if ((node as HTMLInputElement).disabled) states.disabled = 'true';
    const entry: InPageEntry = { role, name: computeAccessibleName(node), states };
    const value = (node as HTMLInputElement).value;
    if (typeof value === 'string' && value) entry.value = value;
    out.push(entry);
  }
}

(globalThis as { __inPageModel?: () => InPageEntry[] }).__inPageModel = () => {
  const out: InPageEntry[] = [];
  visit(document, out);
  return out;
};
