// Whether an element is being moved by an animation right now (a menu or tree that animates open,
// a dialog sliding in): a click at its current centre would miss where it ends up. Playwright waits
// for a stable box before it clicks; the background asks this and locates the element again.

/** The next element up the flat tree: through the slot a node is assigned to, and from a shadow root to its host. */
function flatParent(node: Node): Node | null {
  const slot: HTMLSlotElement | null = (node as Element).assignedSlot ?? null;
  return slot ?? node.parentNode ?? (node as ShadowRoot).host ?? null;
}

/** A finite animation or transition (a spinner's endless one never settles) now running on `element` itself. */
function animated(element: Element): boolean {
  if (typeof element.getAnimations !== 'function') return false;
  for (const animation of element.getAnimations()) {
    if (animation.playState !== 'running') continue;
    const end = animation.effect?.getComputedTiming().endTime;
    if (typeof end === 'number' && Number.isFinite(end)) return true;
  }
  return false;
}

/**
 * The element or an element above it in the flat tree is animated (an animated wrapper inside a
 * shadow root moves the light children slotted into it; document.getAnimations() does not list
 * animations inside shadow roots, so each element is asked).
 */
export function inMotion(element: Element): boolean {
  for (let at: Node | null = element; at; at = flatParent(at))
    if (at.nodeType === Node.ELEMENT_NODE && animated(at as Element)) return true;
  return false;
}
