// The operations the page agent (page/page-agent.ts, injected into the task tab's isolated
// world) performs, with their argument and result types. Shared by the agent and the
// background's page-agent client; types only.

import type { DomIndexElement } from '../../transport/contracts/actions.ts';

export type Scope = 'viewport' | 'document';
export type BBox = { x: number; y: number; w: number; h: number };

/** The background's record of the last dom_index on a tab (see background/element-refs.ts). */
export interface RefGeneration {
  docToken: string;
  attr: string;
  firstId: number;
  lastId: number;
  /** An index from the accessibility tree: clickId -> backend node (b) and frame (f) of the main frame's document `loaderId`. */
  ax?: AxRefs;
}

export interface AxRefs {
  loaderId: string;
  /** `o`: the frame runs in another process (reached through its child session). */
  nodes: Record<string, AxRefNode>;
}

export interface AxRefNode {
  b: number;
  f: string;
  o?: 1;
  /** A frame nested in an out-of-process frame, in its process: that out-of-process frame (whose session holds the node). */
  t?: string;
}

export interface TargetSpec {
  clickId?: number;
  xpath?: string;
  /** An accessibility-tree ref the background has just marked with `attr="value"` through CDP (ax-target.ts). */
  mark?: { attr: string; value: string };
  /** The accessibility node behind `mark` (for the background's CDP reads; the page ignores it). */
  node?: { backendId: number; frameId: string; mainFrame: boolean; sessionId?: string };
  /** Required with clickId: the generation the id must belong to. */
  ref?: RefGeneration;
}

/** Why a target could not be used: `stale` = from an older index or a previous document. */
export type TargetFailureReason =
  'outside_modal' | 'stale' | 'not_found' | 'not_visible' | 'no_index' | 'no_target' | 'not_editable' | 'bad_xpath';

export type PageOpFailure = {
  ok: false;
  reason: TargetFailureReason;
  message: string;
  /** not_visible only: the control has no box to click but element.click() still operates it. */
  operableByDom?: boolean;
};

export interface OptionInfo {
  value: string;
  label: string;
  selected?: boolean;
  disabled?: boolean;
}

/** A form field the browser refused on submit (constraint validation). */
export interface InvalidFieldInfo {
  field: string;
  message: string;
  clickId?: number;
}

/** One entry of the page model: the contract's DomIndexElement (transport/contracts), less the generation. */
export type IndexedElement = Omit<DomIndexElement, 'generation'>;

export interface ScannedElement {
  xpath: string;
  tag: string;
  text?: string;
  clickId?: number;
  bbox?: BBox;
}

export interface PageOps {
  domIndex: {
    args: { scope: Scope; attr: string; firstId: number };
    result: { ok: true; elements: IndexedElement[]; docToken: string; lastId: number; truncated: boolean };
  };
  xpathScan: {
    args: { scope: Scope; attr: string | null };
    result: { ok: true; elements: ScannedElement[]; truncated: boolean };
  };
  /** Scrolls the target into view if needed and returns its centre in viewport CSS pixels. */
  locate: {
    args: { target: TargetSpec; focus: boolean };
    result:
      | {
          ok: true;
          x: number;
          y: number;
          tag: string;
          obscuredBy?: string;
          opensNewTab: boolean;
          mac: boolean;
          via?: 'label';
          submitsForm: boolean;
          /** An animation is moving the element (or an ancestor): its point may not be where it ends up. */
          moving?: true;
        }
      | PageOpFailure;
  };
  /** Chooses options of a <select> by value or label and fires input + change. */
  selectOptions: {
    args: { target: TargetSpec; values: string[] };
    result: { ok: true; selected: string[]; labels: string[]; changed: boolean } | PageOpFailure;
  };
  /** Whether a person could reach the target now (not behind the top document's open modal); no side effect. */
  reachable: {
    args: { target: TargetSpec };
    result: { ok: true } | PageOpFailure;
  };
  /** The checked state of a checkbox, radio or ARIA checkbox/switch. */
  checkState: {
    args: { target: TargetSpec };
    result: { ok: true; checked: boolean; kind: 'checkbox' | 'radio' | 'aria' } | PageOpFailure;
  };
  /** element.focus(); whether it holds the focus afterwards. */
  focus: {
    args: { target: TargetSpec };
    result: { ok: true; focused: boolean; tag: string } | PageOpFailure;
  };
  /** DOM fallbacks of hover and double-click (untrusted events). */
  domPointer: {
    args: { target: TargetSpec; kind: 'hover' | 'dblclick' };
    result: { ok: true; tag: string } | PageOpFailure;
  };
  /** DOM fallback of a key press on the focused element (or the target, focused first). */
  domKey: {
    args: {
      target: TargetSpec | null;
      key: string;
      code: string;
      text: string;
      modifiers: { alt: boolean; ctrl: boolean; meta: boolean; shift: boolean };
    };
    result: { ok: true; tag: string } | PageOpFailure;
  };
  /** Focuses the target (when given) before CDP key events; arms the own-input guard. */
  focusForKeys: {
    args: { target: TargetSpec | null; guardMs: number };
    result: { ok: true; tag: string; mac: boolean } | PageOpFailure;
  };
  /** Invalid fields of the form the focused element (or target) belongs to, with the browser's messages. */
  formValidity: {
    args: { target: TargetSpec | null; attr: string | null };
    result: { ok: true; invalid: InvalidFieldInfo[] };
  };
  /** The document's own view: URL, title, readiness and the HTTP status of its response. */
  documentState: {
    args: Record<string, never>;
    result: { ok: true; url: string; title: string; readyState: string; httpStatus?: number; docToken: string };
  };
  domClick: {
    args: { target: TargetSpec };
    result: { ok: true; tag: string } | PageOpFailure;
  };
  /** Sets the value like a user would (native setter + input/change events); optional submit. */
  domInput: {
    args: { target: TargetSpec | null; text: string; submit: boolean };
    result: { ok: true; tag: string; submitted: boolean } | PageOpFailure;
  };
  /** Focuses the target (or keeps the focused element) and selects its contents so typing replaces them. */
  focusForTyping: {
    /** guardMs: how long the CDP typing that follows may take (own-input guard). */
    args: { target: TargetSpec | null; guardMs: number };
    /** direct: a control whose value is not typed (range, color, date...): set it with domInput. */
    result: { ok: true; tag: string; direct?: boolean } | PageOpFailure;
  };
  /** arm: start listening for a form's submit event (before Enter); else: whether one was seen since. */
  submitWatch: {
    args: { arm: boolean };
    result: { ok: true; seen: boolean };
  };
  readability: {
    args: Record<string, never>;
    result: { ok: true; title: string; text: string; markdown: string; byline?: string; fallback: boolean };
  };
  html: {
    args: { xpath?: string };
    result: { ok: true; html: string; url: string } | PageOpFailure;
  };
}

export type PageOpName = keyof PageOps;
