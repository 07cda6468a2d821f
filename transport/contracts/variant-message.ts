// Error message for v.variant schemas: names the discriminator and the value that did not match.
import type * as v from 'valibot';

export function variantMessage(issue: v.VariantIssue): string {
  const key = issue.path?.[issue.path.length - 1]?.key;
  if (typeof key !== 'string') return `expected an object, received ${issue.received}`;
  const value = issue.input === undefined ? `missing ${key}` : `unknown ${key} ${JSON.stringify(issue.input)}`;
  return `${value}; expected ${key} ${issue.expected}`;
}
