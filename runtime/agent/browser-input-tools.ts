// The form and keyboard tools of the LLM (select, check, press, double-click, hover) and how each
// maps onto the extension's action catalog. The catalog grows (adds browser_select,
// browser_check, browser_press, browser_dblclick, browser_hover): a tool whose action the catalog
// lacks is either served by the older primitive (select -> browser_type of the option, check ->
// browser_click) or not offered at all, so the model never sees a tool that cannot run.
import { errorValue } from '../../machines/index.ts';
import { actionNames } from '../../transport/contracts/index.ts';
import type { LlmTool } from '../llm/llm-types.ts';

export const inCatalog = (name: string): boolean => (actionNames as readonly string[]).includes(name);

const target = { clickId: { type: 'integer', minimum: 0, description: 'clickId from the latest page read' } };

export const inputTools: Array<LlmTool & { needs?: string }> = [
  {
    name: 'browser_select',
    description:
      'Choose option(s) of a <select> by their visible label or value (several only on a multiple select). Returns the page afterwards.',
    schema: {
      type: 'object',
      properties: {
        ...target,
        values: { type: 'array', items: { type: 'string' }, minItems: 1, description: 'option labels or values' },
      },
      required: ['clickId', 'values'],
      additionalProperties: false,
    },
  },
  {
    name: 'browser_check',
    description:
      'Check (checked=true, the default) or uncheck a checkbox, radio button or switch, also one that is visually hidden and operated through its label. Returns the page afterwards.',
    schema: {
      type: 'object',
      properties: { ...target, checked: { type: 'boolean' } },
      required: ['clickId'],
      additionalProperties: false,
    },
  },
  {
    name: 'browser_press',
    needs: 'browser_press',
    description:
      'Press a key or chord ("Enter", "Escape", "Tab", "ArrowDown", "Control+A") on an element (focused first) or, without clickId, on the focused element.',
    schema: {
      type: 'object',
      properties: { key: { type: 'string' }, ...target },
      required: ['key'],
      additionalProperties: false,
    },
  },
  {
    name: 'browser_dblclick',
    needs: 'browser_dblclick',
    description: 'Double-click an element (e.g. to edit an entry in place). Returns the page afterwards.',
    schema: { type: 'object', properties: target, required: ['clickId'], additionalProperties: false },
  },
  {
    name: 'browser_hover',
    needs: 'browser_hover',
    description: 'Move the mouse over an element (reveals hover-only buttons and menus). Returns the page afterwards.',
    schema: { type: 'object', properties: target, required: ['clickId'], additionalProperties: false },
  },
];

/** The input tools the current catalog can run. */
export function availableInputTools(): LlmTool[] {
  return inputTools.filter((t) => !t.needs || inCatalog(t.needs)).map(({ needs: _needs, ...tool }) => tool);
}

type Mapped =
  | { ok: true; actionName: string; params: Record<string, unknown> }
  | { ok: false; error: ReturnType<typeof errorValue> };

const bad = (message: string): Mapped => ({
  ok: false,
  error: errorValue('SCHEMA_VALIDATION_FAILED', message, { retryable: false }),
});

/** The browser action (and its params) that carries out an input tool call on `tabId`. */
export function inputActionOf(name: string, args: Record<string, unknown>, tabId: number): Mapped | null {
  const clickId =
    typeof args.clickId === 'number' && Number.isInteger(args.clickId) && args.clickId >= 0 ? args.clickId : undefined;
  switch (name) {
    case 'browser_select': {
      const values = Array.isArray(args.values)
        ? args.values.filter((v): v is string => typeof v === 'string')
        : typeof args.value === 'string'
          ? [args.value]
          : [];
      if (clickId === undefined || values.length === 0)
        return bad('browser_select needs { clickId: integer, values: [option label or value, ...] }');
      if (inCatalog('browser_select'))
        return { ok: true, actionName: 'browser_select', params: { tabId, clickId, values } };
      if (values.length > 1)
        return {
          ok: false,
          error: errorValue(
            'INVALID_TARGET',
            'this extension can choose only one option at a time (its catalog has no browser_select action)',
            { retryable: false },
          ),
        };
      return { ok: true, actionName: 'browser_type', params: { tabId, clickId, text: values[0] } };
    }
    case 'browser_check': {
      if (clickId === undefined || (args.checked !== undefined && typeof args.checked !== 'boolean'))
        return bad('browser_check needs { clickId: integer, checked?: boolean }');
      if (inCatalog('browser_check'))
        return { ok: true, actionName: 'browser_check', params: { tabId, clickId, checked: args.checked !== false } };
      return { ok: true, actionName: 'browser_click', params: { tabId, clickId } };
    }
    case 'browser_press': {
      if (
        typeof args.key !== 'string' ||
        args.key.trim() === '' ||
        (args.clickId !== undefined && clickId === undefined)
      )
        return bad('browser_press needs { key: string, clickId?: integer }');
      return {
        ok: true,
        actionName: 'browser_press',
        params: { tabId, key: args.key, ...(clickId !== undefined ? { clickId } : {}) },
      };
    }
    case 'browser_dblclick':
    case 'browser_hover': {
      if (clickId === undefined) return bad(`${name} needs { clickId: integer } from the latest page read`);
      return { ok: true, actionName: name, params: { tabId, clickId } };
    }
    default:
      return null;
  }
}
