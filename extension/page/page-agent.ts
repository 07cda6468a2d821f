// The page agent: injected on demand into the task tab's isolated world
// (scripting.executeScript files), it installs `globalThis.__mimoPageAgent`, which the
// background calls with one operation at a time. Its state (the document token and the current
// dom_index generation) lives as long as the document, so a navigation resets it.
import { domClick, domInput, focusForTyping, locate } from './dom-actions-op.ts';
import {
  checkState,
  reachable,
  documentState,
  domKey,
  domPointer,
  focus,
  focusForKeys,
  formValidity,
  selectOptions,
} from './control-ops.ts';
import { domIndex } from './dom-index-op.ts';
import { elementByXpath } from './element-lookup.ts';
import type { PageOpName, PageOps, RefGeneration } from './page-ops.ts';
import { readability } from './readability-op.ts';
import { isA } from './realm.ts';
import { submitWatch } from './submit-watch-op.ts';
import { xpathScan } from './xpath-scan-op.ts';

export const PAGE_AGENT_GLOBAL = '__mimoPageAgent';

type Handlers = { [K in PageOpName]: (args: PageOps[K]['args']) => PageOps[K]['result'] };

function randomToken(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function install(): void {
  const g = globalThis as Record<string, unknown>;
  if (g[PAGE_AGENT_GLOBAL]) return;
  const state: { docToken: string; current: RefGeneration | null } = { docToken: randomToken(), current: null };
  const handlers: Handlers = {
    domIndex: (args) => domIndex(args, state),
    xpathScan: (args) => xpathScan(args),
    locate: (args) => locate(args, state),
    domClick: (args) => domClick(args, state),
    domInput: (args) => domInput(args, state),
    focusForTyping: (args) => focusForTyping(args, state),
    readability: () => readability(),
    submitWatch: (args) => submitWatch(args),
    selectOptions: (args) => selectOptions(args, state),
    checkState: (args) => checkState(args, state),
    reachable: (args) => reachable(args, state),
    focus: (args) => focus(args, state),
    domPointer: (args) => domPointer(args, state),
    domKey: (args) => domKey(args, state),
    focusForKeys: (args) => focusForKeys(args, state),
    formValidity: (args) => formValidity(args, state),
    documentState: () => documentState(state),
    html: (args) => {
      if (args.xpath === undefined) {
        const clone = document.documentElement.cloneNode(true) as Element;
        clone.querySelectorAll('[data-mimo-overlay]').forEach((node) => node.remove());
        return { ok: true, html: `<!doctype html>\n${clone.outerHTML}`, url: location.href };
      }
      const element = elementByXpath(args.xpath);
      return isA(element, 'Element') ? { ok: true, html: element.outerHTML, url: location.href } : element;
    },
  };
  g[PAGE_AGENT_GLOBAL] = {
    run(op: string, args: unknown): unknown {
      const handler = (handlers as Record<string, (a: unknown) => unknown>)[op];
      if (!handler) return { ok: false, reason: 'not_found', message: `unknown page operation ${op}` };
      return handler(args);
    },
  };
}

install();
