// User settings from the options page, kept in storage.local: where the server is, the
// socket token, extra web UI origins, whether input may use chrome.debugger (CDP), and how soon an
// idle task lets go of the debugger and collapses its tab group.
import * as v from 'valibot';
import type { StorageArea } from './browser-api.ts';
import { parseMatchPattern } from './match-pattern.ts';

export const SETTINGS_KEY = 'mimo.settings';
export const DEFAULT_SERVER_URL = 'http://localhost:6006';
export const DEBUGGER_IDLE_SECONDS = 15;
export const GROUP_COLLAPSE_SECONDS = 60;

function wholeSeconds(what: string, min: number, max: number) {
  return v.pipe(
    v.number(`${what} must be a number of seconds`),
    v.integer(`${what} must be a whole number of seconds`),
    v.minValue(min, `${what} must be at least ${min} s`),
    v.maxValue(max, `${what} must be at most ${max} s`),
  );
}

export const SettingsSchema = v.object({
  serverUrl: v.pipe(
    v.string(),
    v.url('server URL must be an absolute URL'),
    v.check((url) => /^https?:\/\//i.test(url), 'server URL must be http or https'),
  ),
  token: v.string(),
  /** Extra match patterns of web UI pages (besides the manifest's externally_connectable). */
  webUiPatterns: v.array(
    v.pipe(
      v.string(),
      v.check(
        (pattern) => parseMatchPattern(pattern) !== null,
        (issue) => `${JSON.stringify(issue.input)} is not a match pattern like https://example.com/*`,
      ),
    ),
  ),
  /** false: never attach chrome.debugger; input and screenshots use DOM strategies only. */
  useCdp: v.boolean(),
  /** Seconds after a task's last action before the debugger (and Chrome's bar) goes. */
  debuggerIdleSeconds: v.optional(wholeSeconds('the debugger idle time', 1, 3_600), DEBUGGER_IDLE_SECONDS),
  /** Seconds after a task's last action before its tab group is collapsed. */
  groupCollapseSeconds: v.optional(wholeSeconds('the group collapse time', 1, 86_400), GROUP_COLLAPSE_SECONDS),
});
export type Settings = v.InferOutput<typeof SettingsSchema>;

export const defaultSettings: Settings = {
  serverUrl: DEFAULT_SERVER_URL,
  token: '',
  webUiPatterns: [],
  useCdp: true,
  debuggerIdleSeconds: DEBUGGER_IDLE_SECONDS,
  groupCollapseSeconds: GROUP_COLLAPSE_SECONDS,
};

/** Whether two settings differ in what the connection depends on (not the idle timings). */
export function connectionSettingsDiffer(a: Settings, b: Settings): boolean {
  const key = (s: Settings) => JSON.stringify([s.serverUrl, s.token, s.webUiPatterns, s.useCdp]);
  return key(a) !== key(b);
}

/** Stored settings merged over the defaults; a damaged or partial entry falls back field by field. */
export function parseSettings(stored: unknown): Settings {
  const out: Settings = { ...defaultSettings, webUiPatterns: [] };
  if (typeof stored !== 'object' || stored === null) return out;
  for (const key of Object.keys(SettingsSchema.entries) as Array<keyof Settings>) {
    const field = v.safeParse(SettingsSchema.entries[key], (stored as Record<string, unknown>)[key]);
    if (field.success) (out as Record<string, unknown>)[key] = field.output;
  }
  return { ...out, serverUrl: out.serverUrl.replace(/\/+$/, '') };
}

export async function readSettings(storage: StorageArea): Promise<Settings> {
  const stored = await storage.get(SETTINGS_KEY);
  return parseSettings(stored[SETTINGS_KEY]);
}

export type SettingsInputError = { code: 'BAD_REQUEST'; message: string };

/** Validates and stores; bad input comes back as an error value and changes nothing. */
export async function writeSettings(
  storage: StorageArea,
  input: unknown,
): Promise<{ ok: true; settings: Settings } | { ok: false; error: SettingsInputError }> {
  const parsed = v.safeParse(SettingsSchema, input);
  if (!parsed.success) {
    return {
      ok: false,
      error: { code: 'BAD_REQUEST', message: parsed.issues.map((issue) => issue.message).join('; ') },
    };
  }
  const settings = { ...parsed.output, serverUrl: parsed.output.serverUrl.replace(/\/+$/, '') };
  await storage.set({ [SETTINGS_KEY]: settings });
  return { ok: true, settings };
}
