// The browser action catalog (seed 000 §4.2, plus browser_switch_tab from seed 002):
// params and result schemas per action, default exec timeouts (seed 001 §4.1), idempotency.
import * as v from 'valibot';
import {
  defaultAckTimeoutMs,
  defaultExecTimeoutMs as machineExecTimeouts,
  idempotentActions as specIdempotentActions,
} from '../../spec/index.ts';
import { ElementStatesSchema, ModalScopeSchema, PageModelSourceSchema, elementStateFields } from './element-states.ts';
import {
  ArtifactIdSchema,
  GroupIdSchema,
  NonNegativeIntSchema,
  TabIdSchema,
  UrlSchema,
  WindowIdSchema,
} from './ids.ts';

export const actionNames = [
  'task_start',
  'browser_debugger_attach',
  'task_stop',
  'browser_wait_for_loaded',
  'browser_screenshot',
  'browser_readability_extract',
  'browser_dom_index',
  'browser_xpath_scan',
  'browser_click',
  'browser_type',
  'browser_get_html',
  'browser_switch_tab',
  // Real pages: input primitives beyond click and type.
  'browser_select',
  'browser_check',
  'browser_hover',
  'browser_dblclick',
  'browser_focus',
  'browser_press',
] as const;
export const ActionNameSchema = v.picklist(actionNames, (issue) => `unknown action ${JSON.stringify(issue.input)}`);
export type ActionName = v.InferOutput<typeof ActionNameSchema>;

export function isActionName(input: unknown): input is ActionName {
  return typeof input === 'string' && (actionNames as readonly string[]).includes(input);
}

const ScopeSchema = v.picklist(['viewport', 'document']);
const BoundingBoxSchema = v.object({ x: v.number(), y: v.number(), w: v.number(), h: v.number() });
const ClickIdSchema = NonNegativeIntSchema;
const XPathSchema = v.pipe(v.string(), v.nonEmpty('xpath must not be empty'));
export const ClickStrategySchema = v.picklist(['cdp_mouse', 'dom_click']);
export const TypeStrategySchema = v.picklist(['cdp_key', 'dom_input']);
/** Attribute the DOM index writes; default `data-mimo_click_id` (seed 000 §4.2 C). Only data-* attributes. */
const AssignAttrSchema = v.pipe(
  v.string(),
  v.regex(/^data-[A-Za-z0-9_.-]+$/, 'assignAttr must be a data-* attribute name'),
);
/** Every result may carry warnings (CDP fallback, partial page preparation; seed 000 §4.5, §4.6). */
const warnings = { warnings: v.optional(v.array(v.string())) };

/**
 * What an input action did to the main frame: a new document (`sameDocument: false`) or a
 * route change in the same one (hash / history API). `committed: false` when the navigation was
 * requested but the new document had not arrived when the action returned (wait with
 * browser_wait_for_loaded). `httpStatus` of the new document when known.
 */
export const NavigationSchema = v.object({
  url: v.string(),
  sameDocument: v.boolean(),
  committed: v.boolean(),
  httpStatus: v.optional(NonNegativeIntSchema),
});
export type Navigation = v.InferOutput<typeof NavigationSchema>;
/** Input actions say whether they navigated. */
const navigated = { navigated: v.optional(v.boolean()), navigation: v.optional(NavigationSchema) };
/** Form fields the page refused when the action tried to submit (constraint validation). */
export const InvalidFieldSchema = v.object({
  field: v.string(),
  message: v.string(),
  clickId: v.optional(NonNegativeIntSchema),
});
export type InvalidField = v.InferOutput<typeof InvalidFieldSchema>;
/** The target's role, name, value and states after the action, when they could be read. */
const after = { target: v.optional(ElementStatesSchema) };
const validation = { invalidFields: v.optional(v.array(InvalidFieldSchema)) };
const target = {
  clickId: v.optional(NonNegativeIntSchema),
  xpath: v.optional(v.pipe(v.string(), v.nonEmpty('xpath must not be empty'))),
};
const needsTarget = <T extends { clickId?: number; xpath?: string }>(name: string) =>
  v.check<T, string>(
    (p) => p.clickId !== undefined || p.xpath !== undefined,
    `${name} needs a target: clickId or xpath`,
  );
/** A key or chord: "Enter", "a", "Control+A", "Shift+Tab", "Meta+Shift+ArrowLeft". */
const KeySchema = v.pipe(
  v.string(),
  v.nonEmpty('key must not be empty'),
  v.maxLength(64, 'key is at most 64 characters'),
);

export const DEFAULT_CLICK_ID_ATTR = 'data-mimo_click_id';

export const actionParamsSchemas = {
  task_start: v.object({
    url: v.optional(UrlSchema),
    reuseExistingTab: v.optional(v.boolean()),
    groupTitle: v.optional(v.string()),
  }),
  browser_debugger_attach: v.object({ tabId: TabIdSchema }),
  task_stop: v.object({ closeTab: v.optional(v.boolean()) }),
  browser_wait_for_loaded: v.object({ tabId: TabIdSchema, timeoutMs: v.optional(NonNegativeIntSchema) }),
  browser_screenshot: v.object({ tabId: TabIdSchema, fullPage: v.optional(v.boolean()) }),
  browser_readability_extract: v.object({ tabId: TabIdSchema }),
  browser_dom_index: v.object({
    tabId: TabIdSchema,
    scope: v.optional(ScopeSchema),
    assignAttr: v.optional(AssignAttrSchema),
    /**
     * `ax` (default for scope "document" when CDP is on) reads Chrome's accessibility
     * tree; `dom` forces the DOM heuristic (always used for scope "viewport" and with assignAttr).
     */
    source: v.optional(PageModelSourceSchema),
  }),
  browser_xpath_scan: v.object({ tabId: TabIdSchema, scope: v.optional(ScopeSchema) }),
  browser_click: v.pipe(
    v.object({
      tabId: TabIdSchema,
      clickId: v.optional(ClickIdSchema),
      xpath: v.optional(XPathSchema),
      strategy: v.optional(ClickStrategySchema),
    }),
    v.check((p) => p.clickId !== undefined || p.xpath !== undefined, 'browser_click needs a target: clickId or xpath'),
  ),
  browser_type: v.object({
    tabId: TabIdSchema,
    xpath: v.optional(XPathSchema),
    clickId: v.optional(ClickIdSchema),
    text: v.string(),
    submit: v.optional(v.boolean()),
    strategy: v.optional(TypeStrategySchema),
  }),
  browser_get_html: v.object({ tabId: TabIdSchema, xpath: v.optional(XPathSchema) }),
  browser_switch_tab: v.object({ tabId: TabIdSchema }),
  /** Options by value or by visible label; several only on a <select multiple> ([] clears one). */
  browser_select: v.pipe(
    v.object({
      tabId: TabIdSchema,
      ...target,
      values: v.pipe(v.array(v.pipe(v.string(), v.maxLength(1000))), v.maxLength(500)),
    }),
    needsTarget('browser_select'),
  ),
  /** Sets a checkbox, radio or switch to `checked` (default true) through a click, like a user. */
  browser_check: v.pipe(
    v.object({
      tabId: TabIdSchema,
      ...target,
      checked: v.optional(v.boolean()),
      strategy: v.optional(ClickStrategySchema),
    }),
    needsTarget('browser_check'),
  ),
  browser_hover: v.pipe(v.object({ tabId: TabIdSchema, ...target }), needsTarget('browser_hover')),
  browser_dblclick: v.pipe(
    v.object({ tabId: TabIdSchema, ...target, strategy: v.optional(ClickStrategySchema) }),
    needsTarget('browser_dblclick'),
  ),
  browser_focus: v.pipe(v.object({ tabId: TabIdSchema, ...target }), needsTarget('browser_focus')),
  /** A key or chord to the target (focused first) or, without a target, to the focused element. */
  browser_press: v.object({ tabId: TabIdSchema, key: KeySchema, ...target }),
} as const satisfies Record<ActionName, v.GenericSchema>;

const OptionSchema = v.object({
  value: v.string(),
  label: v.string(),
  selected: v.optional(v.boolean()),
  disabled: v.optional(v.boolean()),
});

export const DomIndexElementSchema = v.object({
  clickId: ClickIdSchema,
  tag: v.string(),
  text: v.optional(v.string()),
  xpath: v.optional(v.string()),
  bbox: v.optional(BoundingBoxSchema),
  // Beyond the seed: what a planner needs to pick a target without seeing the page.
  role: v.optional(v.string()),
  type: v.optional(v.string()),
  name: v.optional(v.string()),
  label: v.optional(v.string()),
  placeholder: v.optional(v.string()),
  href: v.optional(v.string()),
  target: v.optional(v.string()),
  value: v.optional(v.string()),
  /** The dom_index generation this clickId belongs to (stale refs get INVALID_TARGET). */
  generation: v.optional(NonNegativeIntSchema),
  // Control state, with the ARIA states of element-states.ts.
  ...elementStateFields,
  multiple: v.optional(v.boolean()),
  options: v.optional(v.array(OptionSchema)),
  min: v.optional(v.string()),
  max: v.optional(v.string()),
  step: v.optional(v.string()),
  /** The control is visually hidden (opacity 0, clipped, 1 px) and is operated through its label or its own box. */
  hiddenControl: v.optional(v.boolean()),
  /** Inside an iframe: the frame's accessible name or URL (the page model inlines same-process frames). */
  frame: v.optional(v.string()),
});
export type DomIndexElement = v.InferOutput<typeof DomIndexElementSchema>;

export const XPathScanElementSchema = v.object({
  xpath: v.string(),
  tag: v.string(),
  text: v.optional(v.string()),
  clickId: v.optional(ClickIdSchema),
  bbox: v.optional(BoundingBoxSchema),
});
export type XPathScanElement = v.InferOutput<typeof XPathScanElementSchema>;

export const actionResultSchemas = {
  task_start: v.object({
    tabId: TabIdSchema,
    windowId: WindowIdSchema,
    groupId: v.optional(GroupIdSchema),
    url: v.string(),
    title: v.optional(v.string()),
    ...warnings,
  }),
  browser_debugger_attach: v.object({ attached: v.literal(true), ...warnings }),
  task_stop: v.object({ stopped: v.literal(true), ...warnings }),
  browser_wait_for_loaded: v.object({
    status: v.literal('complete'),
    // The document that finished loading, and its HTTP status when known.
    url: v.optional(v.string()),
    title: v.optional(v.string()),
    httpStatus: v.optional(NonNegativeIntSchema),
    ...navigated,
    ...warnings,
  }),
  browser_screenshot: v.object({
    artifactId: ArtifactIdSchema,
    url: v.string(),
    width: NonNegativeIntSchema,
    height: NonNegativeIntSchema,
    ...warnings,
  }),
  browser_readability_extract: v.object({
    artifactId: v.optional(ArtifactIdSchema),
    text: v.optional(v.string()),
    markdown: v.optional(v.string()),
    title: v.optional(v.string()),
    contentLengthBytes: v.optional(NonNegativeIntSchema),
    truncated: v.optional(v.boolean()),
    ...warnings,
  }),
  /** `source`: the accessibility tree (`ax`) or the DOM fallback (`dom`); `modal`: the dialog that scopes the list. */
  browser_dom_index: v.object({
    elements: v.array(DomIndexElementSchema),
    source: v.optional(PageModelSourceSchema),
    modal: v.optional(ModalScopeSchema),
    ...warnings,
  }),
  browser_xpath_scan: v.object({ elements: v.array(XPathScanElementSchema), ...warnings }),
  browser_click: v.object({
    clicked: v.literal(true),
    strategy: ClickStrategySchema,
    ...navigated,
    ...after,
    ...validation,
    ...warnings,
  }),
  /** submitted: with submit, whether the page saw a form submit (or navigated); Enter in a textarea is not one. */
  browser_type: v.object({
    typed: v.literal(true),
    strategy: TypeStrategySchema,
    submitted: v.optional(v.boolean()),
    ...navigated,
    ...after,
    /** Typing into a combobox: the options its suggestion list shows afterwards (at most 50). */
    suggestions: v.optional(v.array(v.string())),
    ...validation,
    ...warnings,
  }),
  browser_get_html: v.object({ artifactId: ArtifactIdSchema, url: v.string(), ...warnings }),
  browser_switch_tab: v.object({ tabId: TabIdSchema, url: v.string(), title: v.optional(v.string()), ...warnings }),
  browser_select: v.object({
    selected: v.array(v.string()),
    labels: v.array(v.string()),
    ...navigated,
    ...after,
    ...warnings,
  }),
  /** `checked`: the control's state read back after the action; `changed`: whether it had to click. */
  browser_check: v.object({
    checked: v.boolean(),
    changed: v.boolean(),
    strategy: ClickStrategySchema,
    ...navigated,
    ...after,
    ...warnings,
  }),
  browser_hover: v.object({ hovered: v.literal(true), strategy: ClickStrategySchema, ...after, ...warnings }),
  browser_dblclick: v.object({
    dblclicked: v.literal(true),
    strategy: ClickStrategySchema,
    ...navigated,
    ...after,
    ...warnings,
  }),
  /** `focused`: whether the element holds the focus afterwards. */
  browser_focus: v.object({ focused: v.boolean(), ...after, ...warnings }),
  browser_press: v.object({
    pressed: v.string(),
    strategy: TypeStrategySchema,
    ...navigated,
    ...after,
    ...validation,
    ...warnings,
  }),
} as const satisfies Record<ActionName, v.GenericSchema>;

export type ActionParamsMap = { [K in ActionName]: v.InferOutput<(typeof actionParamsSchemas)[K]> };
export type ActionResultMap = { [K in ActionName]: v.InferOutput<(typeof actionResultSchemas)[K]> };
export type ActionParams<K extends ActionName = ActionName> = ActionParamsMap[K];
export type ActionResult<K extends ActionName = ActionName> = ActionResultMap[K];

/**
 * Default T_exec per action in ms (seed 001 §4.1; browser_switch_tab 5 s is ours) and the default
 * T_ack (1.5 s). One table for the whole product: the action machine's, which machines/ must own
 * since it imports nothing but xstate.
 */
export const defaultExecTimeoutMs = machineExecTimeouts as Readonly<Record<ActionName, number>>;
export const DEFAULT_ACK_TIMEOUT_MS = defaultAckTimeoutMs;

/** Actions that may be retried once on a retryable error with no result (seed 001 §4.2). */
export const idempotentActions = specIdempotentActions as ReadonlySet<ActionName>;

export function isIdempotentAction(name: ActionName): boolean {
  return idempotentActions.has(name);
}

/** Readability output is inlined below this many UTF-8 bytes, returned as an artifact above (seed 000 §4.2 B). */
export const READABILITY_INLINE_MAX_BYTES = 256 * 1024;
/** Readability output above this many bytes fails with READABILITY_TOO_LARGE (seed 000 §4.2 B). */
export const READABILITY_MAX_BYTES = 2 * 1024 * 1024;
