// A modal dialog scopes the page: with a <dialog> shown modally or a visible
// aria-modal="true" element open, a person can only reach what is inside it. An element behind
// it (before it in document order) is refused as `outside_modal`; content after it is allowed,
// since libraries render a dialog's own pop-ups (listboxes, menus) in portals appended after it.
// The same rule scopes the accessibility-tree model (background/ax-model.ts).

function isShown(element: Element): boolean {
  if (element.getClientRects().length === 0) return false;
  const style = getComputedStyle(element);
  return style.visibility !== 'hidden' && style.display !== 'none';
}

/** The top-most open modal of the top document (the last in document order), or null. */
export function openModal(doc: Document = document): Element | null {
  let found: Element | null = null;
  for (const dialog of Array.from(doc.querySelectorAll('dialog[open]'))) if (dialog.matches(':modal')) found = dialog;
  for (const element of Array.from(doc.querySelectorAll('[aria-modal="true"]'))) {
    if (!isShown(element)) continue;
    if (!found || found.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING) found = element;
  }
  return found;
}

/** The element as it sits in the top document: itself, the host of its shadow root, or its frame's <iframe>. */
function inTopDocument(element: Element): Element | null {
  let node: Element = element;
  for (let hops = 0; hops < 50; hops++) {
    const root = node.getRootNode();
    // By node type, not instanceof: a same-origin frame's roots belong to its own realm.
    if (root.nodeType === Node.DOCUMENT_FRAGMENT_NODE && 'host' in root) node = (root as ShadowRoot).host;
    else if (root === document) return node;
    else if (root.nodeType === Node.DOCUMENT_NODE) {
      const frame = (root as Document).defaultView?.frameElement ?? null;
      if (!frame) return null;
      node = frame;
    } else return null;
  }
  return null;
}

/** A description of the modal the element is behind, or null when the element can be reached. */
export function behindModal(element: Element): string | null {
  const modal = openModal();
  if (!modal) return null;
  const placed = inTopDocument(element);
  if (!placed || modal === placed || modal.contains(placed)) return null;
  if (!(modal.compareDocumentPosition(placed) & Node.DOCUMENT_POSITION_PRECEDING)) return null;
  const role = modal.getAttribute('role') ?? (modal.localName === 'dialog' ? 'dialog' : modal.localName);
  const labelledBy = modal.getAttribute('aria-labelledby');
  const name =
    modal.getAttribute('aria-label') ??
    (labelledBy ? document.getElementById(labelledBy.split(/\s+/)[0]!)?.textContent?.trim() : undefined);
  return name ? `${role} "${name.slice(0, 80)}"` : role;
}
