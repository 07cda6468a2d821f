// Clause readers for the form and list actions of a request: "add a todo called X", "choose X in
// the Y select", "check / mark X as complete / turn on X", and the verbs the planner has no tool
// for or does not plan (double-click, hover, drag, scroll, keys other than Enter), reported as not done.
import { firstQuote, unmask, type MaskedRequest } from './request-text.ts';

export type FormAction =
  | { kind: 'type'; text: string; field?: string; submit: boolean; adds?: string }
  | { kind: 'select'; option: string; field?: string }
  | { kind: 'check'; target: string; phrase: string; want: 'on' | 'off' | 'toggle' }
  | { kind: 'expand'; target: string; want: 'open' | 'close' };

const COUNT = String.raw`(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|some|a\s+few|several)`;
const ITEM_NOUN = String.raw`(?:todos?|to-dos?|items?|tasks?|entr(?:y|ies)|notes?|rows?|things?)`;
const ADD = new RegExp(
  String.raw`^(?:please\s+)?(?:add|create|insert|enter|put\s+in)\s+(?:a\s+|an\s+|another\s+|one\s+more\s+|the\s+)?(?:${COUNT}\s+)?(?:new\s+)?(${ITEM_NOUN})\b\s*(?::|called|named|titled|saying|reading|with\s+(?:the\s+)?(?:text|title|name))?\s*(.*)$`,
  'i',
);
const EXPAND =
  /^(?:please\s+)?(expand|unfold|collapse|fold)\s+(?:up\s+)?(?:the\s+)?(.+?)(?:\s+(?:node|folder|branch|section|group|tree\s*item|item|row))?$/i;
const CHOOSE_AS =
  /^(?:please\s+)?(?:choose|select|pick)\s+(?:the\s+)?(?:date\s+|day\s+)?(.+?)\s+as\s+(?:the\s+|my\s+)?(.+)$/i;
const CHOOSE_IN =
  /^(?:please\s+)?(?:choose|select|pick)\s+(?:the\s+)?(?:option\s+)?(.+?)\s+(?:in|from|on|for)\s+(?:the\s+)?(.+)$/i;
const CHOOSE = /^(?:please\s+)?(?:choose|select|pick)\s+(?:the\s+)?(?:option\s+)?(.+)$/i;
const SET_TO = /^(?:please\s+)?(?:set|change)\s+(?:the\s+)?(.+?)\s+to\s+(.+)$/i;
const MARK =
  /^(?:please\s+)?mark\s+(.+?)\s+as\s+(complete[d]?|done|finished|checked|active|not\s+done|incomplete|unchecked|uncompleted)$/i;
const CHECK =
  /^(?:please\s+)?(check(?!\s+out\b)|tick|uncheck|untick|toggle|complete|finish|enable|disable)\s+(?:off\s+)?(.+)$/i;
const TURN =
  /^(?:please\s+)?(?:turn|switch)\s+(on|off)\s+(?:the\s+)?(.+)$|^(?:please\s+)?(?:turn|switch)\s+(?:the\s+)?(.+?)\s+(on|off)$/i;

export const UNSUPPORTED: Array<[RegExp, string]> = [
  [
    /\bdouble[\s-]?click|\bdblclick\b/i,
    'the offline planner does not plan double-clicks (it clicks, types, checks, chooses options and switches tabs)',
  ],
  [/\b(?:hover|mouse\s*over)\b/i, 'the offline planner does not plan hovering'],
  [/\bdrag\b/i, 'dragging is not among the browser tools'],
  [/\bscroll\b/i, 'scrolling is not among the browser tools (a page read covers the whole page)'],
  [/\bupload\b/i, 'uploading files is not among the browser tools'],
  [
    /\b(?:press|hit)\s+(?:the\s+)?(?:escape|esc|tab|backspace|delete|del|space|arrow|up|down|left|right|home|end|page\s*(?:up|down)|control|ctrl|alt|shift|meta|cmd|f\d+)\b/i,
    'the offline planner only presses Enter (when submitting a field)',
  ],
];

/** Verbs that need a tool the planner lacks, when nothing else in the clause was understood. */
export const UNSUPPORTED_IF_UNREAD: Array<[RegExp, string]> = [
  [
    /\b(?:edit|rename|change|modify|update)\b/i,
    'editing an entry in place (double-click, retype) is not something the offline planner plans',
  ],
  [
    /\b(?:delete|remove|destroy)\b/i,
    'I found no way to delete without a visible button named for it; ask me to click that button by its text',
  ],
  [/\b(?:wait|sleep)\b/i, 'the offline planner does not wait (each step reads the page once it has loaded)'],
  [/\b(?:download|print|save)\b/i, 'downloading, printing or saving is not among the browser tools'],
];

function cleanPhrase(raw: string, request: MaskedRequest): string {
  const quoted = firstQuote(raw, request);
  if (quoted !== undefined) return quoted;
  return unmask(raw, request)
    .replace(/^(?:the|a|an)\s+/i, '')
    .replace(/\s+(?:checkbox|check\s*box|box|switch|toggle|radio(?:\s+button)?|option|item|todo|entry)$/i, '')
    .replace(
      /^(?:checkbox|check\s*box|switch|toggle|radio(?:\s+button)?|option|todo|item)\s+(?:for\s+|called\s+|named\s+|labell?ed\s+)?/i,
      '',
    )
    .replace(/[.!?]+$/, '')
    .trim();
}

function cleanSelectField(raw: string, request: MaskedRequest): string {
  return unmask(raw, request)
    .replace(/[.!?]+$/, '')
    .replace(/\b(?:the|a|an)\b/gi, ' ')
    .replace(/\b(?:select|dropdown|drop-down|drop\s+down|list|menu|box|field|list\s*box|options?)\b/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** One clause as a form action, or null when it is none of these. */
export function formActionOf(clause: string, request: MaskedRequest): FormAction | null {
  const add = ADD.exec(clause);
  if (add && add[2]!.trim()) {
    const text = cleanItemText(add[2]!, request);
    return text ? { kind: 'type', text, submit: true, adds: add[1]!.toLowerCase().replace(/s$/, '') } : null;
  }
  const mark = MARK.exec(clause);
  if (mark) {
    const off = /^(?:active|not\s+done|incomplete|unchecked|uncompleted)$/i.test(mark[2]!);
    return {
      kind: 'check',
      target: cleanPhrase(mark[1]!, request),
      phrase: unmask(clause, request),
      want: off ? 'off' : 'on',
    };
  }
  const turn = TURN.exec(clause);
  if (turn) {
    const state = (turn[1] ?? turn[4])!.toLowerCase();
    return {
      kind: 'check',
      target: cleanPhrase((turn[2] ?? turn[3])!, request),
      phrase: unmask(clause, request),
      want: state === 'on' ? 'on' : 'off',
    };
  }
  const check = CHECK.exec(clause);
  if (check) {
    const verb = check[1]!.toLowerCase();
    const want = verb === 'toggle' ? 'toggle' : /^(?:uncheck|untick|disable)$/.test(verb) ? 'off' : 'on';
    const target = cleanPhrase(check[2]!, request);
    return target ? { kind: 'check', target, phrase: unmask(clause, request), want } : null;
  }
  const expand = EXPAND.exec(clause);
  if (expand) {
    const target = cleanPhrase(expand[2]!, request);
    return target ? { kind: 'expand', target, want: /^(?:expand|unfold)$/i.test(expand[1]!) ? 'open' : 'close' } : null;
  }
  const chooseAs = CHOOSE_AS.exec(clause);
  if (chooseAs) {
    const field = cleanSelectField(chooseAs[2]!, request);
    return { kind: 'select', option: cleanPhrase(chooseAs[1]!, request), ...(field ? { field } : {}) };
  }
  const chooseIn = CHOOSE_IN.exec(clause);
  if (chooseIn) {
    const field = cleanSelectField(chooseIn[2]!, request);
    return { kind: 'select', option: cleanPhrase(chooseIn[1]!, request), ...(field ? { field } : {}) };
  }
  const choose = CHOOSE.exec(clause);
  if (choose) return { kind: 'select', option: cleanPhrase(choose[1]!, request) };
  const set = SET_TO.exec(clause);
  if (set && !/\btabs?\b/i.test(set[1]!)) {
    const field = cleanSelectField(set[1]!, request);
    return { kind: 'select', option: cleanPhrase(set[2]!, request), ...(field ? { field } : {}) };
  }
  return null;
}

/** A bare clause right after an "add" ("add todos called A, B and C"): another item to add. */
export function cleanItemText(raw: string, request: MaskedRequest): string {
  const quoted = firstQuote(raw, request);
  if (quoted !== undefined) return quoted;
  return unmask(raw, request)
    .replace(/\s+(?:to|in|into|on)\s+(?:the\s+)?(?:list|todo\s+list|to-do\s+list|page)$/i, '')
    .replace(/[.!?]+$/, '')
    .trim();
}
