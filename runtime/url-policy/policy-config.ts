// The URL policy file (seed 004 §4.4, JSON): `{ "open": { allow_schemes, allow_about_blank,
// allow_hosts, allow_host_suffixes } }`, plus one field of ours, `allow_private_networks`,
// which explicitly lifts the private/loopback block (true = every liftable category, or a
// list such as ["loopback"]). No file means the safe defaults. A bad file is a list of
// readable errors, never a silently weaker policy.
import { readFile } from 'node:fs/promises';
import * as v from 'valibot';
import { liftableCategories, type LiftableCategory } from './ip-ranges.ts';

export interface UrlPolicyConfig {
  /** Subset of http/https. */
  allowSchemes: Array<'http' | 'https'>;
  allowAboutBlank: boolean;
  /** null when the file names no allowlist field (every public host allowed). */
  allowHosts: string[] | null;
  allowHostSuffixes: string[] | null;
  /** Categories of non-public addresses the file lifted (empty = all blocked, the default). */
  allowPrivateNetworks: LiftableCategory[];
  /** The file it came from, or null for the defaults. */
  source: string | null;
}

export const defaultUrlPolicyConfig: UrlPolicyConfig = Object.freeze({
  allowSchemes: ['http', 'https'],
  allowAboutBlank: true,
  allowHosts: null,
  allowHostSuffixes: null,
  allowPrivateNetworks: [],
  source: null,
}) as UrlPolicyConfig;

const HostSchema = v.pipe(
  v.string(),
  v.transform((s) => s.trim().toLowerCase().replace(/\.$/, '')),
  v.regex(
    /^(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$|^[0-9a-f:.]+$|^\[[0-9a-f:.]+\]$/,
    'expected a host name such as "example.com"',
  ),
);
const SuffixSchema = v.pipe(
  v.string(),
  v.transform((s) => s.trim().toLowerCase().replace(/\.$/, '')),
  v.regex(
    /^\.?(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/,
    'expected a host suffix such as ".example.com"',
  ),
);

const OpenSchema = v.strictObject({
  allow_schemes: v.optional(v.array(v.picklist(['http', 'https'], 'only "http" and "https" can be allowed'))),
  allow_about_blank: v.optional(v.boolean()),
  allow_hosts: v.optional(v.array(HostSchema)),
  allow_host_suffixes: v.optional(v.array(SuffixSchema)),
  allow_private_networks: v.optional(
    v.union([v.boolean(), v.array(v.picklist(liftableCategories, `expected one of ${liftableCategories.join(', ')}`))]),
  ),
});

const FileSchema = v.object({ open: v.optional(OpenSchema) });

export type PolicyConfigResult = { ok: true; config: UrlPolicyConfig } | { ok: false; errors: string[] };

/** Validates the parsed JSON of a policy file. */
export function parseUrlPolicyConfig(json: unknown, source: string | null = null): PolicyConfigResult {
  const parsed = v.safeParse(FileSchema, json);
  if (!parsed.success) {
    return {
      ok: false,
      errors: parsed.issues.map((issue) => {
        const path = issue.path?.map((p) => String(p.key)).join('.') ?? '';
        return `${source ?? 'policy'}${path ? ` ${path}` : ''}: ${issue.message}`;
      }),
    };
  }
  const open = parsed.output.open ?? {};
  const lifted = open.allow_private_networks;
  return {
    ok: true,
    config: {
      allowSchemes: [...new Set(open.allow_schemes ?? defaultUrlPolicyConfig.allowSchemes)],
      allowAboutBlank: open.allow_about_blank ?? defaultUrlPolicyConfig.allowAboutBlank,
      allowHosts: open.allow_hosts ? [...new Set(open.allow_hosts.map((h) => h.replace(/^\[|\]$/g, '')))] : null,
      allowHostSuffixes: open.allow_host_suffixes ? [...new Set(open.allow_host_suffixes)] : null,
      allowPrivateNetworks:
        lifted === true
          ? [...liftableCategories]
          : lifted === false || lifted === undefined
            ? []
            : [...new Set(lifted)],
      source,
    },
  };
}

/** Reads `path` (MIMO_URL_POLICY); undefined or empty path = the defaults. */
export async function loadUrlPolicyConfig(
  path: string | undefined,
  read: (path: string) => Promise<string> = (p) => readFile(p, 'utf8'),
): Promise<PolicyConfigResult> {
  if (!path) return { ok: true, config: defaultUrlPolicyConfig };
  let text: string;
  try {
    text = await read(path);
  } catch (error) {
    return {
      ok: false,
      errors: [`${path}: cannot read the URL policy file (${(error as NodeJS.ErrnoException).code ?? String(error)})`],
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, errors: [`${path}: not valid JSON (${(error as Error).message})`] };
  }
  return parseUrlPolicyConfig(json, path);
}
