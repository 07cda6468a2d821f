// Token usage of the open task (one `usage` event per LLM call, summed) and its estimated cost.
import { computed, signal, type ReadonlySignal } from '@preact/signals';
import type { UsageEvent } from '../../../transport/contracts/frontend-event.ts';

/** US dollars per million tokens. */
export interface Pricing {
  promptPerMillion: number;
  completionPerMillion: number;
}

/** A deliberately rough default; pass the real prices of the configured model. */
export const DEFAULT_PRICING: Pricing = { promptPerMillion: 0.5, completionPerMillion: 1.5 };

export interface UsageTotals {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  calls: number;
}

export interface UsageModel {
  totals: ReadonlySignal<UsageTotals>;
  /** Estimated cost in US dollars. */
  cost: ReadonlySignal<number>;
  pricing: Pricing;
  /** Applies one usage event; repeated event ids count once. */
  apply(event: UsageEvent): boolean;
  reset(): void;
}

const zero: UsageTotals = { promptTokens: 0, completionTokens: 0, totalTokens: 0, calls: 0 };

export function createUsageModel(deps: { pricing?: Pricing } = {}): UsageModel {
  const pricing = deps.pricing ?? DEFAULT_PRICING;
  const totals = signal<UsageTotals>(zero);
  let seen = new Set<string>();
  return {
    totals,
    pricing,
    cost: computed(
      () =>
        (totals.value.promptTokens * pricing.promptPerMillion +
          totals.value.completionTokens * pricing.completionPerMillion) /
        1_000_000,
    ),
    apply(event) {
      if (seen.has(event.id)) return false;
      seen.add(event.id);
      const t = totals.value;
      totals.value = {
        promptTokens: t.promptTokens + event.promptTokens,
        completionTokens: t.completionTokens + event.completionTokens,
        totalTokens: t.totalTokens + event.totalTokens,
        calls: t.calls + 1,
      };
      return true;
    },
    reset() {
      seen = new Set();
      totals.value = zero;
    },
  };
}

/** `$0.0012` style, with more digits for small amounts. */
export function formatCost(usd: number): string {
  if (usd === 0) return '$0';
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}
