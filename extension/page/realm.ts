// `instanceof` across realms: an element of a same-origin frame is built by that frame's window,
// so `element instanceof HTMLElement` (the top page's HTMLElement) is false for it. isA checks
// against the element's own window's constructor (and the agent's own, for detached nodes).

interface Kinds {
  Element: Element;
  HTMLElement: HTMLElement;
  HTMLInputElement: HTMLInputElement;
  HTMLTextAreaElement: HTMLTextAreaElement;
  HTMLSelectElement: HTMLSelectElement;
  HTMLButtonElement: HTMLButtonElement;
  HTMLLabelElement: HTMLLabelElement;
  HTMLOptGroupElement: HTMLOptGroupElement;
  HTMLOptionElement: HTMLOptionElement;
  HTMLIFrameElement: HTMLIFrameElement;
  HTMLFormElement: HTMLFormElement;
  HTMLAnchorElement: HTMLAnchorElement;
  SVGElement: SVGElement;
}

type Ctor = abstract new (...args: never[]) => unknown;

export function isA<K extends keyof Kinds>(node: unknown, kind: K): node is Kinds[K] {
  if (typeof node !== 'object' || node === null) return false;
  const own = (node as Node).ownerDocument?.defaultView as unknown as Record<string, unknown> | null | undefined;
  const here = (globalThis as unknown as Record<string, unknown>)[kind] as Ctor | undefined;
  const there = own?.[kind] as Ctor | undefined;
  return (typeof here === 'function' && node instanceof here) || (typeof there === 'function' && node instanceof there);
}
