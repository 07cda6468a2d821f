// Runs one parsed browser-shell command on a session's task tab through the extension:
// open -> task_start (URL policy, final URL re-checked), snapshot -> browser_dom_index (+ text),
// click/fill/type/select -> browser_click / browser_type by the ref's clickId, press Enter ->
// browser_type with submit on the last field filled, wait -> a bounded wait, screenshot ->
// browser_screenshot (an artifact), close -> task_stop. Returns exit code, data and stderr.
import type { ErrorValue } from '../../../machines/index.ts';
import type { BrowserSession, BrowserSessions } from '../browser/browser-sessions.ts';
import type { PageDriver } from '../browser/page-driver.ts';
import type { ShellCommand } from './shell-command.ts';
import { buildSnapshot, lookupRef, type RefTable } from './snapshot-refs.ts';
import { urlMatchesPattern } from './url-glob.ts';

export const SNAPSHOT_TEXT_MAX_CHARS = 8000;
export const WAIT_POLL_MS = 500;

export interface ShellOutcome {
  exitCode: number;
  data?: unknown;
  stderr: string;
}

export interface ShellRunnerDeps {
  sessions: BrowserSessions;
  /** Waits (interruptible by the deadline signal). */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** A screenshot artifact MCP handed out (get_artifact may read it). */
  rememberArtifact(artifactId: string): void;
}

interface ShellState {
  table?: RefTable;
  lastField?: { ref: string; clickId: number; value: string };
}

const ok = (data: unknown): ShellOutcome => ({ exitCode: 0, data, stderr: '' });
const fail = (message: string, exitCode = 1): ShellOutcome => ({ exitCode, stderr: message });

function describe(error: ErrorValue): string {
  if (error.code === 'INVALID_TARGET') return `INVALID_TARGET: ${error.message} (the page changed since the snapshot: run "snapshot -i" again)`;
  return `${error.code}: ${error.message}`;
}

export async function runShellCommand(deps: ShellRunnerDeps, session: BrowserSession, command: ShellCommand, signal: AbortSignal): Promise<ShellOutcome> {
  const state = session.shell as ShellState;
  if (command.kind === 'unsupported') return fail(command.reason);
  if (command.kind === 'close') {
    const closed = await deps.sessions.closeMain(session);
    if (session.workers.size === 0) await deps.sessions.close(session.sessionId);
    return closed.ok ? ok({ closed: true }) : fail(describe(closed.error));
  }
  if (command.kind !== 'open' && (!session.main || session.main.tabId === null)) return fail('no page is open in this session: run "open <url>" first');
  const main = deps.sessions.main(session);
  if (!main.ok) return fail(describe(main.error));
  const page: PageDriver = main.page;

  const element = (ref: string) => lookupRef(state.table, ref);

  switch (command.kind) {
    case 'open': {
      const opened = await page.open(command.url, signal);
      state.table = undefined;
      state.lastField = undefined;
      if (!opened.ok) return fail(describe(opened.error));
      return ok({ url: opened.value.url, title: opened.value.title });
    }
    case 'snapshot': {
      const indexed = await page.domIndex(signal);
      if (!indexed.ok) return fail(describe(indexed.error));
      const snap = buildSnapshot(indexed.value.elements);
      state.table = snap.table;
      const data: Record<string, unknown> = { url: page.currentUrl() ?? '', snapshot: snap.lines.join('\n'), refs: snap.refs };
      if (snap.truncated) data.truncated = true;
      if (indexed.value.warnings.length > 0) data.warnings = indexed.value.warnings;
      if (!command.interactive) {
        const read = await page.readText(signal);
        if (read.ok) {
          data.title = read.value.title;
          data.text = read.value.text.slice(0, SNAPSHOT_TEXT_MAX_CHARS);
          if (read.value.text.length > SNAPSHOT_TEXT_MAX_CHARS || read.value.truncated) data.textTruncated = true;
        }
      }
      return ok(data);
    }
    case 'click': {
      const target = element(command.ref);
      if (!target.ok) return fail(target.message);
      const clicked = await page.click(target.element.clickId, signal);
      if (!clicked.ok) return fail(describe(clicked.error));
      state.lastField = undefined;
      return ok({ clicked: `@${command.ref}`, ...(clicked.value.warnings.length ? { warnings: clicked.value.warnings } : {}) });
    }
    case 'fill':
    case 'type':
    case 'select': {
      const target = element(command.ref);
      if (!target.ok) return fail(target.message);
      const e = target.element;
      if (command.kind === 'select' && e.tag !== 'select') return fail(`select works on <select> elements; @${command.ref} is <${e.tag}>`);
      if (command.kind !== 'select' && !['input', 'textarea'].includes(e.tag) && e.role !== 'textbox') return fail(`${command.kind} needs a text field; @${command.ref} is <${e.tag}>`);
      // browser_type replaces the field's contents, so `type` (append) sends what is there plus the text.
      const before = state.lastField?.ref === command.ref ? state.lastField.value : (e.value ?? '');
      const value = command.kind === 'fill' ? command.text : command.kind === 'type' ? before + command.text : command.value;
      const typed = await page.type(e.clickId, value, false, signal);
      if (!typed.ok) return fail(describe(typed.error));
      state.lastField = { ref: command.ref, clickId: e.clickId, value };
      const done = command.kind === 'fill' ? { filled: `@${command.ref}` } : command.kind === 'type' ? { typed: `@${command.ref}` } : { selected: `@${command.ref}` };
      return ok({ ...done, ...(typed.value.warnings.length ? { warnings: typed.value.warnings } : {}) });
    }
    case 'press': {
      if (!/^(enter|return)$/i.test(command.key)) return fail(`press ${command.key}: only Enter is available (the extension's action catalog types text and submits with Enter; it has no other key primitive)`);
      const field = state.lastField;
      if (!field) return fail('press Enter needs a field: fill or type into one first (Enter is sent to that field)');
      const pressed = await page.type(field.clickId, field.value, true, signal);
      if (!pressed.ok) return fail(describe(pressed.error));
      state.table = undefined; // submitting usually replaces the page
      state.lastField = undefined;
      return ok({ pressed: 'Enter', on: `@${field.ref}` });
    }
    case 'wait': {
      if ('ms' in command) {
        await deps.sleep(command.ms, signal);
        return ok({ waited: command.ms });
      }
      if ('load' in command) {
        const loaded = await page.waitLoaded(undefined, signal);
        return loaded.ok ? ok({ loaded: true, url: loaded.value.url }) : fail(describe(loaded.error));
      }
      for (;;) {
        if ('text' in command) {
          const read = await page.readText(signal);
          if (read.ok && read.value.text.includes(command.text)) return ok({ found: true });
        } else {
          const url = page.currentUrl() ?? '';
          if (urlMatchesPattern(url, command.urlPattern)) return ok({ found: true, url });
        }
        if (signal.aborted) return fail('wait: not found before the timeout', 124);
        await deps.sleep(WAIT_POLL_MS, signal);
      }
    }
    case 'screenshot': {
      const shot = await page.screenshot(command.fullPage, signal);
      if (!shot.ok) return fail(describe(shot.error));
      deps.rememberArtifact(shot.value.artifactId);
      return ok({ artifactId: shot.value.artifactId, url: shot.value.url, width: shot.value.width, height: shot.value.height, mimeType: 'image/png' });
    }
  }
}
