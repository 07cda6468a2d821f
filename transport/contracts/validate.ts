// validate(schema, input): a result value with field-level errors. Never throws.
import * as v from 'valibot';
import type { FieldError } from './envelope.ts';

export type ValidationError<TCode extends string = 'BAD_REQUEST'> = {
  code: TCode;
  message: string;
  fieldErrors: FieldError[];
};

export type ValidationResult<TValue, TCode extends string = 'BAD_REQUEST'> =
  { ok: true; value: TValue } | { ok: false; error: ValidationError<TCode> };

/** How many field errors the summary message names before "and N more". */
const SUMMARY_LIMIT = 3;

/**
 * Dot path of the offending field (`action.browser_click.tabId`, `tabs.0.index`); '' when the
 * input as a whole is wrong (not an object, a failed cross-field check on the root).
 */
export function fieldOf(issue: v.BaseIssue<unknown>): string {
  return v.getDotPath(issue) ?? '';
}

function join(prefix: string, field: string): string {
  return prefix === '' ? field : field === '' ? prefix : `${prefix}.${field}`;
}

/** valibot reports a missing key as `Invalid key: Expected "x" but received undefined`; say it plainly. */
function messageOf(issue: v.BaseIssue<unknown>): string {
  const key = issue.path?.[issue.path.length - 1]?.key;
  const missingKey = issue.kind === 'schema' && issue.input === undefined && issue.expected === `"${String(key)}"`;
  return missingKey ? `${String(key)} is required` : issue.message;
}

/**
 * Flatten issues into field errors. A union whose options all failed contributes its own
 * error and then its options' nested errors (their paths are relative to the union's value,
 * so they are prefixed here); bare type mismatches of the options are left out as noise.
 */
export function toFieldErrors(issues: readonly v.BaseIssue<unknown>[], prefix = ''): FieldError[] {
  const out: FieldError[] = [];
  for (const issue of issues) {
    const field = join(prefix, fieldOf(issue));
    out.push({ field, message: messageOf(issue) });
    if (issue.type === 'union' && issue.issues !== undefined) {
      const nested = issue.issues.filter((sub) => fieldOf(sub) !== '');
      out.push(...toFieldErrors(nested, field));
    }
  }
  return out;
}

function lastSegment(field: string): string {
  return field.slice(field.lastIndexOf('.') + 1);
}

function summarize(fieldErrors: FieldError[]): string {
  const shown = fieldErrors
    .slice(0, SUMMARY_LIMIT)
    .map((e) =>
      e.field === '' || e.message.startsWith(lastSegment(e.field)) ? e.message : `${e.field}: ${e.message}`,
    );
  const more = fieldErrors.length > SUMMARY_LIMIT ? `; and ${fieldErrors.length - SUMMARY_LIMIT} more` : '';
  return `invalid input: ${shown.join('; ')}${more}`;
}

export function validate<const TSchema extends v.GenericSchema>(
  schema: TSchema,
  input: unknown,
): ValidationResult<v.InferOutput<TSchema>>;
export function validate<const TSchema extends v.GenericSchema, const TCode extends string>(
  schema: TSchema,
  input: unknown,
  code: TCode,
): ValidationResult<v.InferOutput<TSchema>, TCode>;
export function validate(
  schema: v.GenericSchema,
  input: unknown,
  code: string = 'BAD_REQUEST',
): ValidationResult<unknown, string> {
  let parsed: v.SafeParseResult<v.GenericSchema>;
  try {
    parsed = v.safeParse(schema, input);
  } catch (cause) {
    // A schema never throws on data; a getter or a hostile proxy in the input might.
    const message = `input could not be inspected: ${cause instanceof Error ? cause.message : String(cause)}`;
    return { ok: false, error: { code, message, fieldErrors: [{ field: '', message }] } };
  }
  if (parsed.success) return { ok: true, value: parsed.output };
  const fieldErrors = toFieldErrors(parsed.issues);
  return { ok: false, error: { code, message: summarize(fieldErrors), fieldErrors } };
}
