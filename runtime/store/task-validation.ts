// Input checks for the task store. Each returns the normalized value (a private JSON copy) or a
// BAD_REQUEST TaskStoreError with `fieldErrors`; nothing here throws.
import { TaskStoreError } from './task-store-error.ts';
import { MESSAGE_ROLES, TASK_STATUSES, TURN_OUTCOMES } from './task-types.ts';
import type {
  CreateTaskInput,
  JsonValue,
  Message,
  MessageRole,
  TaskPatch,
  TaskStatus,
  TaskUsage,
  TurnOutcome,
} from './task-types.ts';

/**
 * What the store accepts as a task id: it names a folder on disk, so only [A-Za-z0-9_-],
 * starting with a letter or digit, at most 128 characters. The stricter API rule (UUID or ULID,
 * seed 001 §2.1) is `isUuidOrUlid`, for the HTTP layer.
 */
const TASK_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ULID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/i;

export const MAX_TITLE_LENGTH = 1000;
const MAX_ID_LENGTH = 200;

export function isStorableTaskId(value: unknown): value is string {
  return typeof value === 'string' && TASK_ID.test(value);
}

/** Seed 001 §2.1: a taskId from a client must be a UUID or a ULID. */
export function isUuidOrUlid(value: unknown): value is string {
  return typeof value === 'string' && (UUID.test(value) || ULID.test(value));
}

type FieldErrors = Array<{ field: string; message: string }>;

function badRequest(message: string, fieldErrors: FieldErrors): TaskStoreError {
  return new TaskStoreError('BAD_REQUEST', message, { fieldErrors });
}

export function checkTaskId(taskId: unknown): TaskStoreError | undefined {
  if (isStorableTaskId(taskId)) return undefined;
  return badRequest('invalid taskId', [{ field: 'taskId', message: 'expected 1-128 characters of [A-Za-z0-9_-]' }]);
}

/** A deep copy through JSON, or undefined when the value is not JSON-serializable. */
export function toJson(value: unknown): JsonValue | undefined {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : (JSON.parse(text) as JsonValue);
  } catch {
    return undefined;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkTitle(value: unknown, errors: FieldErrors): void {
  if (typeof value !== 'string') errors.push({ field: 'title', message: 'expected a string' });
  else if (value.length > MAX_TITLE_LENGTH)
    errors.push({ field: 'title', message: `at most ${MAX_TITLE_LENGTH} characters` });
}

function checkClientId(value: unknown, errors: FieldErrors): void {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_ID_LENGTH) {
    errors.push({ field: 'selectedClientId', message: `expected a string of 1-${MAX_ID_LENGTH} characters` });
  }
}

function checkUsage(value: unknown, errors: FieldErrors): TaskUsage | undefined {
  if (!isPlainObject(value)) {
    errors.push({ field: 'usage', message: 'expected { promptTokens, completionTokens, totalTokens }' });
    return undefined;
  }
  const keys = ['promptTokens', 'completionTokens', 'totalTokens'] as const;
  for (const key of keys) {
    const n = value[key];
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0)
      errors.push({ field: `usage.${key}`, message: 'expected a non-negative integer' });
  }
  for (const key of Object.keys(value)) {
    if (!(keys as readonly string[]).includes(key)) errors.push({ field: `usage.${key}`, message: 'unknown field' });
  }
  return {
    promptTokens: value.promptTokens as number,
    completionTokens: value.completionTokens as number,
    totalTokens: value.totalTokens as number,
  };
}

export function parseCreateInput(input: unknown): CreateTaskInput | TaskStoreError {
  if (!isPlainObject(input)) return badRequest('expected { taskId, title, selectedClientId? }', []);
  const idError = checkTaskId(input.taskId);
  if (idError) return idError;
  const errors: FieldErrors = [];
  checkTitle(input.title, errors);
  if (input.selectedClientId !== undefined) checkClientId(input.selectedClientId, errors);
  if (errors.length > 0) return badRequest('invalid task', errors);
  const out: CreateTaskInput = { taskId: input.taskId as string, title: input.title as string };
  if (input.selectedClientId !== undefined) out.selectedClientId = input.selectedClientId as string;
  return out;
}

/** A validated patch; `null` means "remove the field". */
export interface ParsedPatch {
  status?: TaskStatus;
  title?: string;
  selectedClientId?: string | null;
  machineSnapshot?: JsonValue;
  usage?: TaskUsage;
  outcome?: TurnOutcome | null;
}

const PATCH_KEYS = new Set(['status', 'title', 'selectedClientId', 'machineSnapshot', 'usage', 'outcome']);

export function parsePatch(patch: TaskPatch | unknown): ParsedPatch | TaskStoreError {
  if (!isPlainObject(patch)) return badRequest('expected a patch object', []);
  const errors: FieldErrors = [];
  const out: ParsedPatch = {};
  for (const key of Object.keys(patch)) {
    if (!PATCH_KEYS.has(key)) errors.push({ field: key, message: 'unknown or read-only field' });
  }
  if ('status' in patch) {
    if (!(TASK_STATUSES as readonly unknown[]).includes(patch.status))
      errors.push({ field: 'status', message: `expected one of ${TASK_STATUSES.join(', ')}` });
    else out.status = patch.status as TaskStatus;
  }
  if ('title' in patch) {
    checkTitle(patch.title, errors);
    out.title = patch.title as string;
  }
  if ('selectedClientId' in patch) {
    if (patch.selectedClientId !== null) checkClientId(patch.selectedClientId, errors);
    out.selectedClientId = patch.selectedClientId as string | null;
  }
  if ('machineSnapshot' in patch) {
    const json = patch.machineSnapshot === undefined ? undefined : toJson(patch.machineSnapshot);
    if (json === undefined)
      errors.push({ field: 'machineSnapshot', message: 'expected a JSON-serializable value (null clears it)' });
    else out.machineSnapshot = json;
  }
  if ('usage' in patch) {
    const usage = checkUsage(patch.usage, errors);
    if (usage) out.usage = usage;
  }
  if ('outcome' in patch) {
    if (patch.outcome !== null && !(TURN_OUTCOMES as readonly unknown[]).includes(patch.outcome))
      errors.push({ field: 'outcome', message: `expected one of ${TURN_OUTCOMES.join(', ')} or null` });
    else out.outcome = patch.outcome as TurnOutcome | null;
  }
  if (errors.length > 0) return badRequest('invalid task patch', errors);
  return out;
}

const MESSAGE_KEYS = new Set(['id', 'role', 'content', 'timestamp', 'meta']);

export function parseMessage(input: unknown): Message | TaskStoreError {
  if (!isPlainObject(input)) return badRequest('expected { id, role, content, timestamp, meta? }', []);
  const errors: FieldErrors = [];
  for (const key of Object.keys(input)) {
    if (!MESSAGE_KEYS.has(key)) errors.push({ field: key, message: 'unknown field' });
  }
  if (typeof input.id !== 'string' || input.id.length === 0 || input.id.length > MAX_ID_LENGTH) {
    errors.push({ field: 'id', message: `expected a string of 1-${MAX_ID_LENGTH} characters` });
  }
  if (!(MESSAGE_ROLES as readonly unknown[]).includes(input.role))
    errors.push({ field: 'role', message: `expected one of ${MESSAGE_ROLES.join(', ')}` });
  if (typeof input.content !== 'string') errors.push({ field: 'content', message: 'expected a string' });
  if (typeof input.timestamp !== 'number' || !Number.isFinite(input.timestamp) || input.timestamp < 0) {
    errors.push({ field: 'timestamp', message: 'expected epoch milliseconds' });
  }
  let meta: JsonValue | undefined;
  if (input.meta !== undefined) {
    meta = isPlainObject(input.meta) ? toJson(input.meta) : undefined;
    if (meta === undefined) errors.push({ field: 'meta', message: 'expected a JSON-serializable object' });
  }
  if (errors.length > 0) return badRequest('invalid message', errors);
  const message: Message = {
    id: input.id as string,
    role: input.role as MessageRole,
    content: input.content as string,
    timestamp: input.timestamp as number,
  };
  if (meta !== undefined) message.meta = meta as Message['meta'] & object;
  return message;
}

/** JSON text with object keys sorted, so equal values compare equal whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * True when two stored messages are the same append (used for idempotent retries). `meta.seq`
 * (the message's place in the task's event order) is given anew to each try, so it does not count.
 */
export function sameMessage(a: Message, b: Message): boolean {
  return canonical(withoutSeq(a)) === canonical(withoutSeq(b));
}

function withoutSeq(message: Message): Message {
  if (message.meta?.seq === undefined) return message;
  const { seq: _seq, ...meta } = message.meta;
  return { ...message, meta };
}
