// The overlay drawn on the task tab (seed 000 §2.2), in an open shadow root under one host
// element: `ongoing` = a mask that lets clicks through (the AI's CDP input must reach the
// page) with the current step and a Take over button; `hidden` (between steps of a task) = the
// Take over button alone; `takeover` = a panel with Resume and Stop; idle = nothing. Taking over
// is deliberate: only this button does it, never a stray key or click on the page,
// which only gets a hint. Buttons only react to trusted clicks, so a page script cannot press them.
import type { PluginUiState } from '../../machines/plugin-ui.machine.ts';
import type { ConfirmationDecision, HeldStep } from '../../transport/contracts/index.ts';

export const OVERLAY_HOST_ATTR = 'data-mimo-overlay';

export interface OverlayView {
  /** `capturing`: a screenshot is being taken: nothing may show. `turnRunning`: between steps of a running turn, Take over stays. */
  render(state: PluginUiState, step: string, options?: { capturing?: boolean; turnRunning?: boolean }): void;
  /** A stray key or click on the page while the agent works: point at the Take over button. */
  hint(): void;
  /** The first step waiting for the person's yes, or null: "Needs you: confirm" with its three answers. */
  confirmation(waiting: { requestId: string; step: HeldStep } | null): void;
  /** Whether the mask or the takeover panel is on the page right now. */
  isShowing(): boolean;
  /** Whether an event happened on the overlay itself (not the page). */
  owns(event: Event): boolean;
  destroy(): void;
}

export interface OverlayCallbacks {
  onResume(): void;
  onStop(): void;
  /** The person pressed Take over. */
  onTakeOver?(): void;
  /** The person answered a held step. */
  onConfirm?(requestId: string, decision: ConfirmationDecision): void;
}

/** A held step in the person's words (as the web UI says it). */
export function heldStepWords(step: HeldStep): string {
  const verb: Record<string, string> = {
    browser_open: 'Open',
    browser_click: 'Click',
    browser_type: 'Type into',
    browser_press: 'Press Enter on',
    browser_dblclick: 'Double-click',
    browser_check: 'Tick',
  };
  const what =
    step.toolName === 'browser_open' ? (step.url ?? step.site) : step.element ? `"${step.element}"` : 'this page';
  return `${verb[step.toolName] ?? step.toolName} ${what}${step.value ? ` with the value "${step.value}"` : ''} on ${step.site}`;
}

export const HINT_TEXT = 'Mimo is using this tab. Press Take over to use it yourself.';

const STYLE = `
:host { all: initial; }
.mask { position: fixed; inset: 0; z-index: 2147483646; pointer-events: none; box-shadow: inset 0 0 0 4px rgba(37, 99, 235, 0.85); background: rgba(37, 99, 235, 0.06); }
.pill { position: fixed; left: 50%; bottom: 24px; transform: translateX(-50%); z-index: 2147483647; pointer-events: none;
  font: 500 14px/1.4 system-ui, sans-serif; color: #fff; background: rgba(17, 24, 39, 0.92); padding: 8px 16px; border-radius: 999px; }
.panel { position: fixed; right: 20px; bottom: 20px; z-index: 2147483647; pointer-events: auto; display: flex; gap: 8px; align-items: center;
  font: 500 14px/1.4 system-ui, sans-serif; color: #111827; background: #fff; border: 1px solid #d1d5db; border-radius: 12px; padding: 10px 12px;
  box-shadow: 0 6px 24px rgba(0, 0, 0, 0.18); }
button { font: 600 14px system-ui, sans-serif; border-radius: 8px; padding: 6px 14px; cursor: pointer; border: 1px solid transparent; }
#mimo-resume { background: #2563eb; color: #fff; }
#mimo-stop { background: #fff; color: #b91c1c; border-color: #fca5a5; }
.takeover-button { position: fixed; right: 20px; bottom: 20px; z-index: 2147483647; pointer-events: auto; display: flex; gap: 8px; align-items: center;
  font: 500 13px/1.4 system-ui, sans-serif; color: #fff; background: rgba(17, 24, 39, 0.92); padding: 6px 8px 6px 12px; border-radius: 12px; }
#mimo-take-over { background: #fbbf24; color: #111827; }
.confirm { position: fixed; left: 50%; top: 20px; transform: translateX(-50%); z-index: 2147483647; pointer-events: auto; max-width: 560px;
  font: 500 14px/1.4 system-ui, sans-serif; color: #111827; background: #fff7e6; border: 2px solid #d97706; border-radius: 12px; padding: 10px 12px;
  box-shadow: 0 6px 24px rgba(0, 0, 0, 0.18); display: flex; flex-direction: column; gap: 6px; }
.confirm-actions { display: flex; gap: 8px; flex-wrap: wrap; }
#mimo-allow-once { background: #2563eb; color: #fff; }
#mimo-allow-site { background: #fff; color: #111827; border-color: #9ca3af; }
#mimo-deny { background: #fff; color: #b91c1c; border-color: #fca5a5; }
`;

export function createOverlayView(document: Document, callbacks: OverlayCallbacks): OverlayView {
  let host: HTMLElement | null = null;
  let root: ShadowRoot | null = null;
  let shown: string | null = null;

  function mount(): ShadowRoot {
    if (root && host?.isConnected) return root;
    host = document.createElement('mimo-overlay');
    host.setAttribute(OVERLAY_HOST_ATTR, '');
    root = host.attachShadow({ mode: 'open' });
    (document.body ?? document.documentElement).appendChild(host);
    return root;
  }

  function unmount(): void {
    host?.remove();
    host = null;
    root = null;
    shown = null;
  }

  function button(id: string, label: string, onTrustedClick: () => void): HTMLButtonElement {
    const el = document.createElement('button');
    el.id = id;
    el.type = 'button';
    el.textContent = label;
    el.addEventListener('click', (event) => {
      event.stopPropagation();
      if (event.isTrusted) onTrustedClick();
    });
    return el;
  }

  let hinted = false;
  let waiting: { requestId: string; step: HeldStep } | null = null;
  let last: { state: PluginUiState; step: string; options: { capturing?: boolean; turnRunning?: boolean } } = {
    state: 'idle',
    step: '',
    options: {},
  };
  function confirmPanel(item: { requestId: string; step: HeldStep }): HTMLElement {
    const box = document.createElement('div');
    box.className = 'confirm';
    box.id = 'mimo-confirm';
    box.setAttribute('role', 'alertdialog');
    const title = document.createElement('strong');
    title.textContent = 'Needs you: confirm';
    const what = document.createElement('span');
    what.id = 'mimo-confirm-step';
    what.textContent = `${heldStepWords(item.step)}. Why: ${item.step.reason}.`;
    const actions = document.createElement('div');
    actions.className = 'confirm-actions';
    const answer = (decision: ConfirmationDecision) => () => callbacks.onConfirm?.(item.requestId, decision);
    actions.append(
      button('mimo-allow-once', 'Allow once', answer('allow_once')),
      button('mimo-allow-site', `Always for ${item.step.site}`, answer('allow_site')),
      button('mimo-deny', 'Deny', answer('deny')),
    );
    box.append(title, what, actions);
    return box;
  }
  function takeOverButton(): HTMLElement {
    const box = document.createElement('div');
    box.className = 'takeover-button';
    box.id = 'mimo-take-over-box';
    const text = document.createElement('span');
    text.id = 'mimo-hint';
    text.textContent = hinted ? HINT_TEXT : 'Mimo is working here';
    box.append(
      text,
      button('mimo-take-over', 'Take over', () => callbacks.onTakeOver?.()),
    );
    return box;
  }

  return {
    hint() {
      hinted = true;
      const text = root?.getElementById('mimo-hint');
      if (text) text.textContent = HINT_TEXT;
    },
    confirmation(next) {
      waiting = next;
      shown = null;
      this.render(last.state, last.step, last.options);
    },
    render(state, step, options = {}) {
      last = { state, step, options };
      const { capturing = false, turnRunning = false } = options;
      if (state !== 'ongoing' && state !== 'hidden') hinted = false;
      const key = `${state}|${step}|${capturing}|${turnRunning}|${hinted}|${waiting?.requestId ?? ''}`;
      const nothing = state === 'idle' || capturing || (state === 'hidden' && (!callbacks.onTakeOver || !turnRunning));
      if (nothing && (!waiting || capturing)) return unmount();
      if (key === shown && host?.isConnected) return;
      const shadow = mount();
      shadow.replaceChildren();
      const style = document.createElement('style');
      style.textContent = STYLE;
      shadow.appendChild(style);
      if (waiting) shadow.appendChild(confirmPanel(waiting));
      if (nothing) {
        // Only the question.
      } else if (state === 'ongoing') {
        const mask = document.createElement('div');
        mask.className = 'mask';
        const pill = document.createElement('div');
        pill.className = 'pill';
        pill.id = 'mimo-step';
        pill.textContent = `Mimo is working: ${step}`;
        shadow.append(mask, pill);
        if (callbacks.onTakeOver) shadow.append(takeOverButton());
      } else if (state === 'hidden') {
        shadow.append(takeOverButton());
      } else {
        const panel = document.createElement('div');
        panel.className = 'panel';
        panel.id = 'mimo-takeover';
        const text = document.createElement('span');
        text.textContent = 'You have control of this tab.';
        panel.append(
          text,
          button('mimo-resume', 'Resume', callbacks.onResume),
          button('mimo-stop', 'Stop', callbacks.onStop),
        );
        shadow.appendChild(panel);
      }
      shown = key;
    },
    isShowing: () => host?.isConnected ?? false,
    owns(event) {
      return host !== null && event.composedPath().includes(host);
    },
    destroy: unmount,
  };
}
