// How a JavaScript dialog in a task tab is answered (CDP `Page.javascriptDialogOpening` ->
// `Page.handleJavaScriptDialog`): dismissed by default (alert closed, confirm false, prompt null),
// as a person who does not want to be interrupted would; a `beforeunload` prompt is accepted while
// an agent action runs on the task or has just ended (the agent navigated or closed the page: the
// page must not keep it), and dismissed otherwise. Nothing waits for a person.

export type DialogType = 'alert' | 'confirm' | 'prompt' | 'beforeunload';

export interface DialogOpening {
  type: DialogType;
  message: string;
  url?: string;
  defaultPrompt?: string;
}

export interface DialogAnswer {
  accept: boolean;
  /** For an accepted prompt. */
  promptText?: string;
  /** Why, for the report. */
  reason: string;
}

export function answerDialog(dialog: DialogOpening, context: { agentActing: boolean }): DialogAnswer {
  if (dialog.type === 'beforeunload') {
    return context.agentActing
      ? { accept: true, reason: 'the agent is navigating away; leaving the page' }
      : { accept: false, reason: 'no agent navigation is under way; staying on the page' };
  }
  if (dialog.type === 'alert') return { accept: false, reason: 'alerts are closed' };
  return { accept: false, reason: `${dialog.type} dialogs are dismissed by default` };
}

/** One line for the agent and the web UI. */
export function describeDialog(dialog: DialogOpening, answer: DialogAnswer): string {
  const said = dialog.message.length > 300 ? `${dialog.message.slice(0, 300)}…` : dialog.message;
  const answered = dialog.type === 'alert' ? 'closed it' : answer.accept ? 'accepted it' : 'dismissed it';
  return `the page showed a ${dialog.type} dialog ${JSON.stringify(said)}; Mimo ${answered} (${answer.reason})`;
}

export function isDialogType(value: unknown): value is DialogType {
  return value === 'alert' || value === 'confirm' || value === 'prompt' || value === 'beforeunload';
}
