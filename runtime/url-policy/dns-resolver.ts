// The production HostResolver: the operating system's resolver (getaddrinfo, like the browser),
// every A and AAAA answer, bounded in time. Tests inject their own resolver instead.
import { lookup } from 'node:dns/promises';
import type { HostResolver, ResolvedAddress } from './url-policy.ts';

export interface SystemResolverOptions {
  /** Give up after this long (default 5 s); a timeout blocks the URL like any DNS failure. */
  timeoutMs?: number;
  lookup?: (hostname: string) => Promise<Array<{ address: string; family: number }>>;
}

export function createSystemResolver(options: SystemResolverOptions = {}): HostResolver {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const find = options.lookup ?? ((hostname: string) => lookup(hostname, { all: true, verbatim: true }));
  return async (hostname) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(Object.assign(new Error(`DNS lookup of ${hostname} timed out`), { code: 'ETIMEOUT' })),
        timeoutMs,
      );
    });
    try {
      const answers = await Promise.race([find(hostname), timeout]);
      return answers.map((a): ResolvedAddress => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
    } finally {
      clearTimeout(timer);
    }
  };
}
