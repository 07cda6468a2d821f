// axe-core injected into a real Chromium page (through CDP evaluation, so an extension page's CSP
// does not stop it); returns the serious and critical violations, readable.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

export async function seriousViolations(page: Page, label: string): Promise<string[]> {
  if (!(await page.evaluate(() => typeof (globalThis as { axe?: unknown }).axe !== 'undefined')))
    await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run(
            ctx: unknown,
            opts: unknown,
          ): Promise<{
            violations: Array<{
              id: string;
              impact: string | null;
              help: string;
              nodes: Array<{ target: unknown[]; failureSummary?: string }>;
            }>;
          }>;
        };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? 'unknown',
      help: v.help,
      targets: v.nodes
        .slice(0, 5)
        .map(
          (n) =>
            `${n.target.join(' ')}${n.failureSummary ? ` :: ${n.failureSummary.replace(/\s+/g, ' ').slice(0, 160)}` : ''}`,
        ),
    }));
  });
  return found
    .filter((v: AxeFinding) => v.impact === 'serious' || v.impact === 'critical')
    .map((v: AxeFinding) => `[${label}] ${v.impact} ${v.id}: ${v.help}\n    ${v.targets.join('\n    ')}`);
}
