export { createUrlPolicy } from './url-policy.ts';
export type {
  HostResolver,
  ResolvedAddress,
  UrlBlockReason,
  UrlBlockedError,
  UrlPolicy,
  UrlPolicyDeps,
  UrlVerdict,
} from './url-policy.ts';
export { defaultUrlPolicyConfig, loadUrlPolicyConfig, parseUrlPolicyConfig } from './policy-config.ts';
export type { PolicyConfigResult, UrlPolicyConfig } from './policy-config.ts';
export { describePolicy } from './describe-policy.ts';
export type { PolicyDescription } from './describe-policy.ts';
export { createSystemResolver } from './dns-resolver.ts';
export type { SystemResolverOptions } from './dns-resolver.ts';
export { classifyAddress, fixedCategories, isLiftable, liftableCategories, specialRanges } from './ip-ranges.ts';
export type { AddressCategory, Classification, FixedCategory, LiftableCategory } from './ip-ranges.ts';
export { formatIp, inPrefix, parseIp, parseIpv4, parseIpv6 } from './ip-address.ts';
export type { IpAddress } from './ip-address.ts';
