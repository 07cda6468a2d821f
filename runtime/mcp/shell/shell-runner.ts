// Runs one parsed browser-shell command on a session's task tab through the extension:
// open -> task_start (URL policy, final URL re-checked), snapshot -> browser_dom_index (+ text),
// click/fill/type/select -> browser_click / browser_type by the ref's clickId, press Enter ->
// browser_type with submit on the last field filled, wait -> a bounded wait, screenshot ->
// browser_screenshot (an artifact), close -> task_stop. Returns exit code, data and stderr.
import type { ErrorValue } from '../../../machines/index.ts';
import type { BrowserSession, BrowserSessions } from '../browser/browser-sessions.ts';
import type { PageDriver } from '../browser/page-driver.ts';
import type { ShellCommand } from './shell-command.ts';
import { SHELL_MAX_STDOUT_BYTES } from './shell-output.ts';
import { fitSnapshot } from './shell-snapshot.ts';
import { lookupRef, type RefTable } from './snapshot-refs.ts';
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
  // Only a stale ref means the page changed; a wrong option or a disabled control does not.
  const reason = (error.details as { reason?: unknown } | undefined)?.reason;
  if (error.code === 'INVALID_TARGET' && (reason === 'stale' || reason === 'no_index'))
    return `INVALID_TARGET: ${error.message} (the page changed since the snapshot: run "snapshot -i" again)`;
  return `${error.code}: ${error.message}`;
}

/**
 * What an input action's result tells the caller beyond "done": where it navigated (refs of
 * the old document are dropped: the page is a new one), and the form fields the page refused.
 */
function afterInput(state: ShellState, result: Record<string, unknown>, warnings: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const navigation = result.navigation as
    { url?: string; sameDocument?: boolean; committed?: boolean; httpStatus?: number } | undefined;
  if (result.navigated === true && navigation) {
    out.navigated = true;
    out.url = navigation.url;
    if (navigation.sameDocument) out.sameDocument = true;
    if (navigation.committed === false) out.loading = true;
    if (navigation.httpStatus !== undefined) out.httpStatus = navigation.httpStatus;
    if (!navigation.sameDocument) {
      state.table = undefined;
      state.lastField = undefined;
    }
  }
  if (Array.isArray(result.invalidFields) && result.invalidFields.length > 0) out.invalidFields = result.invalidFields;
  // The target's role, name and states after the action, and a combobox's suggestions.
  if (result.target && typeof result.target === 'object') out.target = result.target;
  if (Array.isArray(result.suggestions)) out.suggestions = result.suggestions;
  if (warnings.length > 0) out.warnings = warnings;
  return out;
}

export async function runShellCommand(
  deps: ShellRunnerDeps,
  session: BrowserSession,
  command: ShellCommand,
  signal: AbortSignal,
): Promise<ShellOutcome> {
  const state = session.shell as ShellState;
  if (command.kind === 'unsupported') return fail(command.reason);
  if (command.kind === 'close') {
    const closed = await deps.sessions.closeMain(session);
    if (session.workers.size === 0) await deps.sessions.close(session.sessionId);
    return closed.ok ? ok({ closed: true }) : fail(describe(closed.error));
  }
  if (command.kind !== 'open' && (!session.main || session.main.tabId === null))
    return fail('no page is open in this session: run "open <url>" first');
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
      const { url, title, httpStatus, warnings } = opened.value;
      return ok({
        url,
        title,
        ...(httpStatus !== undefined && httpStatus !== 200 ? { httpStatus } : {}),
        ...(warnings.length > 0 ? { warnings } : {}),
      });
    }
    case 'snapshot': {
      const indexed = await page.domIndex(signal);
      if (!indexed.ok) return fail(describe(indexed.error));
      const parts: Parameters<typeof fitSnapshot>[0] = {
        url: page.currentUrl() ?? '',
        elements: indexed.value.elements,
      };
      if (indexed.value.source) parts.source = indexed.value.source;
      if (indexed.value.modal) parts.modal = indexed.value.modal;
      if (indexed.value.warnings.length > 0) parts.warnings = indexed.value.warnings;
      if (!command.interactive) {
        const read = await page.readText(signal);
        if (read.ok) {
          parts.title = read.value.title;
          parts.text = read.value.text;
          if (read.value.truncated) parts.textCut = true;
        } else {
          parts.warnings = [...(parts.warnings ?? []), `page text unavailable: ${describe(read.error)}`];
        }
      }
      const fitted = fitSnapshot(parts, SHELL_MAX_STDOUT_BYTES, SNAPSHOT_TEXT_MAX_CHARS);
      state.table = fitted.table;
      return ok(fitted.data);
    }
    case 'click': {
      const target = element(command.ref);
      if (!target.ok) return fail(target.message);
      const clicked = await page.click(target.element.clickId, signal);
      if (!clicked.ok) return fail(describe(clicked.error));
      state.lastField = undefined;
      return ok({ clicked: `@${command.ref}`, ...afterInput(state, clicked.value.result, clicked.value.warnings) });
    }
    case 'select': {
      const target = element(command.ref);
      if (!target.ok) return fail(target.message);
      const e = target.element;
      // A <select>, or an ARIA combobox / listbox (the extension opens it and clicks the option).
      if (e.tag !== 'select' && e.role !== 'combobox' && e.role !== 'listbox')
        return fail(
          `select works on <select> elements, comboboxes and listboxes; @${command.ref} is ${e.role ? `a ${e.role}` : `<${e.tag}>`}`,
        );
      const chosen = await page.perform('browser_select', { clickId: e.clickId, values: command.values }, signal);
      if (!chosen.ok) return fail(describe(chosen.error));
      const r = chosen.value;
      return ok({
        selected: `@${command.ref}`,
        values: r.selected,
        labels: r.labels,
        ...afterInput(state, r, (r.warnings as string[] | undefined) ?? []),
      });
    }
    case 'fill':
    case 'type': {
      const target = element(command.ref);
      if (!target.ok) return fail(target.message);
      const e = target.element;
      // The accessibility-tree model names fields by role (a range input is a slider, a number field a spinbutton).
      if (
        !['input', 'textarea'].includes(e.tag) &&
        !['textbox', 'searchbox', 'combobox', 'spinbutton', 'slider'].includes(e.role ?? '')
      )
        return fail(`${command.kind} needs a text field; @${command.ref} is <${e.tag}>`);
      // browser_type replaces the field's contents, so `type` (append) sends what is there plus the text.
      const before = state.lastField?.ref === command.ref ? state.lastField.value : (e.value ?? '');
      const value = command.kind === 'fill' ? command.text : before + command.text;
      const typed = await page.type(e.clickId, value, false, signal);
      if (!typed.ok) return fail(describe(typed.error));
      state.lastField = { ref: command.ref, clickId: e.clickId, value };
      const done = command.kind === 'fill' ? { filled: `@${command.ref}` } : { typed: `@${command.ref}` };
      return ok({ ...done, ...afterInput(state, typed.value.result, typed.value.warnings) });
    }
    case 'press': {
      // To whatever holds the focus: the field just filled, the element just clicked or focused.
      const pressed = await page.perform('browser_press', { key: command.key }, signal);
      if (!pressed.ok) return fail(describe(pressed.error));
      const r = pressed.value;
      if (command.key.toLowerCase() !== 'tab') state.lastField = undefined;
      return ok({ pressed: r.pressed, ...afterInput(state, r, (r.warnings as string[] | undefined) ?? []) });
    }
    case 'pointer': {
      const target = element(command.ref);
      if (!target.ok) return fail(target.message);
      const name =
        command.action === 'dblclick'
          ? 'browser_dblclick'
          : command.action === 'hover'
            ? 'browser_hover'
            : 'browser_focus';
      const done = await page.perform(name, { clickId: target.element.clickId }, signal);
      if (!done.ok) return fail(describe(done.error));
      const r = done.value;
      const key = command.action === 'dblclick' ? 'dblclicked' : command.action === 'hover' ? 'hovered' : 'focused';
      if (command.action === 'focus' && r.focused === false)
        return fail(
          `focus: @${command.ref} did not take the focus${Array.isArray(r.warnings) ? ` (${r.warnings.join('; ')})` : ''}`,
        );
      return ok({ [key]: `@${command.ref}`, ...afterInput(state, r, (r.warnings as string[] | undefined) ?? []) });
    }
    case 'check': {
      const target = element(command.ref);
      if (!target.ok) return fail(target.message);
      const done = await page.perform(
        'browser_check',
        { clickId: target.element.clickId, checked: command.checked },
        signal,
      );
      if (!done.ok) return fail(describe(done.error));
      const r = done.value;
      return ok({
        [command.checked ? 'checked' : 'unchecked']: `@${command.ref}`,
        state: r.checked === true ? 'checked' : 'unchecked',
        changed: r.changed === true,
        ...afterInput(state, r, (r.warnings as string[] | undefined) ?? []),
      });
    }
    case 'wait': {
      if ('ms' in command) {
        await deps.sleep(command.ms, signal);
        return ok({ waited: command.ms });
      }
      if ('load' in command) {
        const loaded = await page.waitLoaded(undefined, signal);
        if (!loaded.ok) return fail(describe(loaded.error));
        const { url, title, httpStatus, warnings } = loaded.value;
        return ok({
          loaded: true,
          url,
          ...(title !== undefined ? { title } : {}),
          ...(httpStatus !== undefined && httpStatus !== 200 ? { httpStatus } : {}),
          ...(warnings.length > 0 ? { warnings } : {}),
        });
      }
      for (;;) {
        if ('text' in command) {
          const read = await page.readText(signal);
          if (read.ok && read.value.text.includes(command.text)) return ok({ found: true });
        } else {
          // Matched only against a URL the policy allows: a blocked one is neither answered nor
          // matched (a pattern could probe its query one guess at a time).
          const checked = await page.checkedUrl(signal);
          if (!checked.ok) return fail(describe(checked.error));
          if (urlMatchesPattern(checked.value, command.urlPattern)) return ok({ found: true, url: checked.value });
        }
        if (signal.aborted) return fail('wait: not found before the timeout', 124);
        await deps.sleep(WAIT_POLL_MS, signal);
      }
    }
    case 'screenshot': {
      const shot = await page.screenshot(command.fullPage, signal);
      if (!shot.ok) return fail(describe(shot.error));
      deps.rememberArtifact(shot.value.artifactId);
      return ok({
        artifactId: shot.value.artifactId,
        url: shot.value.url,
        width: shot.value.width,
        height: shot.value.height,
        mimeType: 'image/png',
      });
    }
  }
}
