// The test runner's pre-check: the end-to-end suites drive Debian's Chromium, so when a selected
// test file needs it and it is not installed, `npm test` stops before running anything, with
// one line saying how to install it (instead of dozens of failures). .ci/run installs it.
import { existsSync, readFileSync } from 'node:fs';

export const CHROMIUM_PATH = process.env.MIMO_CHROMIUM ?? '/usr/bin/chromium';

/** What a test file uses when it starts Chromium (directly or through the shared e2e helpers). */
const USES_CHROMIUM =
  /from 'playwright-core'|launchChromium|launchWithExtension|launchRealistic|startE2eEnv|chromium-path/;

export function needsChromium(file: string): boolean {
  try {
    return USES_CHROMIUM.test(readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
}

/** null when fine; else the one line to print. */
export function chromiumMissing(files: readonly string[], path = CHROMIUM_PATH): string | null {
  if (existsSync(path)) return null;
  const needing = files.filter(needsChromium);
  if (needing.length === 0) return null;
  return `Chromium not found at ${path} (${needing.length} test files need it): install it with "apt-get update && apt-get install -y chromium", or set MIMO_CHROMIUM to its path.`;
}
