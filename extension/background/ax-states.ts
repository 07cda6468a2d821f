// The value and ARIA states of one accessibility node, as the page model and the action results
// report them (transport/contracts/element-states.ts). A text field's value is never reported: it
// may be a password or personal data (the DOM index never did either).
import type { ElementStates, Tristate } from '../../transport/contracts/element-states.ts';
import { propertiesOf, roleOfNode, textOfValue, type AxNode } from './ax-tree.ts';
import type { DomExtras } from './ax-model.ts';

const RANGE_ROLES = new Set(['slider', 'spinbutton', 'progressbar', 'scrollbar', 'meter']);

function tristate(raw: unknown): Tristate | undefined {
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  if (raw === 'mixed') return 'mixed';
  return undefined;
}

const finite = (raw: unknown): number | undefined => {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

/** Value and states (everything of ElementStates but role and name). */
export function statesOf(
  node: AxNode,
  props: Map<string, unknown> = propertiesOf(node),
  extras?: DomExtras,
): Omit<ElementStates, 'role' | 'name'> {
  const role = roleOfNode(node);
  const out: Omit<ElementStates, 'role' | 'name'> = {};
  const checked = tristate(props.get('checked'));
  if (checked !== undefined) out.checked = checked;
  const pressed = tristate(props.get('pressed'));
  if (pressed !== undefined) out.pressed = pressed;
  for (const key of ['selected', 'expanded'] as const) {
    const raw = props.get(key);
    if (typeof raw === 'boolean') out[key] = raw;
  }
  for (const key of ['disabled', 'required', 'readonly', 'focused'] as const)
    if (props.get(key) === true) out[key] = true;
  const invalid = props.get('invalid');
  if (invalid !== undefined && invalid !== 'false' && invalid !== false) out.invalid = true;
  const level = finite(props.get('level'));
  if (level !== undefined) out.level = level;
  const popup = props.get('hasPopup');
  if (typeof popup === 'string' && popup !== 'false') out.hasPopup = popup;
  const editable = props.get('editable') !== undefined;
  const value = textOfValue(node.value);
  if (RANGE_ROLES.has(role)) {
    const now = finite(node.value?.value);
    if (now !== undefined) out.valueNow = now;
    const min = finite(props.get('valuemin'));
    if (min !== undefined) out.valueMin = min;
    const max = finite(props.get('valuemax'));
    if (max !== undefined) out.valueMax = max;
    const text = props.get('valuetext');
    if (typeof text === 'string' && text !== '' && text !== value) out.valueText = text;
    if (value) out.value = value;
  } else if (value && !editable && role !== 'textbox' && role !== 'searchbox') {
    // A select-only combobox's choice, a listbox's, a date field's: settings, not typed text.
    out.value = value.slice(0, 200);
  }
  if (extras?.sort) out.sort = extras.sort;
  if (extras?.current) out.current = extras.current;
  return out;
}

/** role + name + states of one node (the `target` of an action result). */
export function elementStatesOf(node: AxNode): ElementStates {
  const out: ElementStates = { role: roleOfNode(node) };
  const name = textOfValue(node.name);
  if (name) out.name = name.slice(0, 160);
  return Object.assign(out, statesOf(node));
}
