// The states of one element as a person's screen reader would hear them: the fields
// the page model gives each entry of browser_dom_index, and what input actions report of their
// target after they ran (`target` in their results), so a client sees the effect of its click.
// All optional: a state the element does not have is absent, never `false` by default.
import * as v from 'valibot';

/** `aria-checked` / `aria-pressed` are tristate: "mixed" is the third value. */
export const TristateSchema = v.union([v.boolean(), v.literal('mixed')]);
export type Tristate = v.InferOutput<typeof TristateSchema>;

export const SortStateSchema = v.picklist(['ascending', 'descending', 'other']);

/** Where the page model came from: Chrome's accessibility tree over CDP, or the DOM heuristic fallback. */
export const PageModelSourceSchema = v.picklist(['ax', 'dom']);
export type PageModelSource = v.InferOutput<typeof PageModelSourceSchema>;

export const elementStateFields = {
  checked: v.optional(TristateSchema),
  pressed: v.optional(TristateSchema),
  selected: v.optional(v.boolean()),
  expanded: v.optional(v.boolean()),
  disabled: v.optional(v.boolean()),
  required: v.optional(v.boolean()),
  readonly: v.optional(v.boolean()),
  invalid: v.optional(v.boolean()),
  focused: v.optional(v.boolean()),
  /** Heading / tree item level. */
  level: v.optional(v.number()),
  /** Range widgets (slider, spinbutton, progress): aria-valuenow / min / max and the value text. */
  valueNow: v.optional(v.number()),
  valueMin: v.optional(v.number()),
  valueMax: v.optional(v.number()),
  valueText: v.optional(v.string()),
  /** aria-sort of a column or row header. */
  sort: v.optional(SortStateSchema),
  /** aria-current (page, step, location, date, time, true). */
  current: v.optional(v.string()),
  /** aria-haspopup: what the element opens (menu, listbox, tree, grid, dialog). */
  hasPopup: v.optional(v.string()),
};

/** An action's target after the action: its role, name, value and states. */
export const ElementStatesSchema = v.object({
  role: v.optional(v.string()),
  name: v.optional(v.string()),
  value: v.optional(v.string()),
  ...elementStateFields,
});
export type ElementStates = v.InferOutput<typeof ElementStatesSchema>;

/** The modal dialog that scopes the page model (aria-modal="true" or a <dialog> shown modally). */
export const ModalScopeSchema = v.object({ role: v.string(), name: v.optional(v.string()) });
export type ModalScope = v.InferOutput<typeof ModalScopeSchema>;
