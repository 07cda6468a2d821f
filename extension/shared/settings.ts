// User settings from the options page, kept in storage.local: where the server is, the
// socket token, extra web UI origins, and whether input may use chrome.debugger (CDP).
import * as v from 'valibot';
import type { StorageArea } from './browser-api.ts';
import { parseMatchPattern } from './match-pattern.ts';

export const SETTINGS_KEY = 'mimo.settings';
export const DEFAULT_SERVER_URL = 'http://localhost:6006';

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
});
export type Settings = v.InferOutput<typeof SettingsSchema>;

export const defaultSettings: Settings = {
  serverUrl: DEFAULT_SERVER_URL,
  token: '',
  webUiPatterns: [],
  useCdp: true,
};

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
