// "Which URL policy is in force", for the web UI, the README and the startup log.
import { fixedCategories, liftableCategories, type AddressCategory } from './ip-ranges.ts';
import type { UrlPolicyConfig } from './policy-config.ts';
import type { UrlPolicy } from './url-policy.ts';

export interface PolicyDescription {
  /** The policy file, or null for the built-in defaults. */
  source: string | null;
  schemes: string[];
  allowAboutBlank: boolean;
  /** null: every public host; otherwise only these hosts and suffixes. */
  allowlist: { hosts: string[]; hostSuffixes: string[] } | null;
  /** Address categories still blocked. */
  blockedCategories: AddressCategory[];
  /** Categories the policy file lifted explicitly. */
  liftedCategories: AddressCategory[];
  /** One paragraph for people. */
  summary: string;
}

/** Accepts the policy itself or its config. */
export function describePolicy(policy: UrlPolicy | UrlPolicyConfig): PolicyDescription {
  const config = 'check' in policy ? policy.config : policy;
  const lifted = liftableCategories.filter((c) => config.allowPrivateNetworks.includes(c));
  const blockedCategories: AddressCategory[] = [
    ...liftableCategories.filter((c) => !lifted.includes(c)),
    ...fixedCategories,
  ];
  const allowlist =
    config.allowHosts === null && config.allowHostSuffixes === null
      ? null
      : { hosts: config.allowHosts ?? [], hostSuffixes: config.allowHostSuffixes ?? [] };
  const parts = [
    `URL policy: ${config.source ? `from ${config.source}` : 'built-in defaults (no MIMO_URL_POLICY file)'}.`,
    `Schemes: ${config.allowSchemes.join(', ')}${config.allowAboutBlank ? ', about:blank' : ''}.`,
    allowlist
      ? `Only these hosts: ${[...allowlist.hosts, ...allowlist.hostSuffixes.map((s) => (s.startsWith('.') ? `*${s}` : `${s} and *.${s}`))].join(', ') || '(none)'}.`
      : 'Any public host.',
    `Blocked addresses (literal or after DNS): ${blockedCategories.join(', ')}.`,
    lifted.length > 0 ? `LIFTED by the policy file: ${lifted.join(', ')}.` : 'Nothing lifted.',
  ];
  return {
    source: config.source,
    schemes: [...config.allowSchemes],
    allowAboutBlank: config.allowAboutBlank,
    allowlist,
    blockedCategories,
    liftedCategories: lifted,
    summary: parts.join(' '),
  };
}
