// The `action` field of browser_action: a single-key object `{ [actionName]: params }`
// (seed 001 §3.5). Validated by looking at the one key first, so a bad param reports
// `action.browser_click.tabId` rather than a union of twelve failures.
import * as v from 'valibot';
import { actionNames, actionParamsSchemas, ActionNameSchema, isActionName } from './actions.ts';
import type { ActionName, ActionParamsMap } from './actions.ts';

/** `{ browser_click: { tabId, ... } }` and so on, one member per action. */
export type ActionCall = { [K in ActionName]: { [P in K]: ActionParamsMap[K] } }[ActionName];

const callSchemaByName = Object.fromEntries(
  actionNames.map((name) => [name, v.object({ [name]: actionParamsSchemas[name] })]),
) as unknown as Record<ActionName, v.GenericSchema<unknown, ActionCall>>;

const SHAPE_HINT = 'action must be an object like { "browser_click": { ... } }';

/** Anything that is not a plain object (arrays included). */
const NotAnObjectActionCallSchema = v.custom<ActionCall>(() => false, SHAPE_HINT);

/** An object that is not a single known key: reports the unknown key or the key count. */
const MalformedActionCallSchema = v.pipe(
  v.record(ActionNameSchema, v.unknown(), SHAPE_HINT),
  v.check(
    (call) => Object.keys(call).length === 1,
    'action must name exactly one action, like { "browser_click": { ... } }',
  ),
) as unknown as v.GenericSchema<unknown, ActionCall>;

export const ActionCallSchema = v.lazy((input): v.GenericSchema<unknown, ActionCall> => {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return NotAnObjectActionCallSchema;
  const keys = Object.keys(input);
  if (keys.length === 1 && isActionName(keys[0])) return callSchemaByName[keys[0]];
  return MalformedActionCallSchema;
});

/** A call as `{ name, params }`, discriminated on `name` so a switch narrows `params`. */
export type NamedActionCall = { [K in ActionName]: { name: K; params: ActionParamsMap[K] } }[ActionName];

/** The action name and params of a validated call. */
export function unpackActionCall(call: ActionCall): NamedActionCall {
  const name = Object.keys(call)[0] as ActionName;
  return { name, params: (call as Record<string, unknown>)[name] } as NamedActionCall;
}

export function packActionCall<K extends ActionName>(name: K, params: ActionParamsMap[K]): ActionCall {
  return { [name]: params } as unknown as ActionCall;
}
