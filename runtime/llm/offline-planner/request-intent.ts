// What the user asked for, read from the words of the request (no page knowledge here): an
// optional URL to open, an ordered list of actions (click, type, switch tab) and the kind of
// final answer (summary, table, report). Pure and deterministic.
import { cleanItemText, formActionOf, UNSUPPORTED, UNSUPPORTED_IF_UNREAD, type FormAction } from './request-actions.ts';
import { firstQuote, keywordsOf, maskRequest, unmask, type MaskedRequest } from './request-text.ts';

export type PlannedAction =
  | { kind: 'click'; target: string; ordinal?: number }
  | Exclude<FormAction, { kind: 'type' }>
  | { kind: 'type'; text: string; field?: string; submit: boolean; adds?: string }
  | { kind: 'switch_tab'; tabId?: number; openFirst: boolean; linkHint?: string };

/** A part of the request the planner could not map to a tool: it is reported, never silently dropped. */
export interface DroppedPart {
  text: string;
  reason: string;
}

export type AnswerKind = 'summary' | 'table' | 'report';

export type RequestIntent =
  | {
      kind: 'browser';
      url?: string;
      path?: string;
      actions: PlannedAction[];
      answer: AnswerKind;
      dropped?: DroppedPart[];
    }
  | { kind: 'chat'; topic: 'greeting' | 'help' | 'thanks' }
  | { kind: 'unknown'; dropped?: DroppedPart[] };

const CLAUSE_SPLIT = /\s*(?:[;,!?]|\.(?=\s|$)|\bafter that\b|\bafterwards\b|\band then\b|\bthen\b|\band\b)\s*/i;
const SUBMIT_ONLY =
  /^(?:please\s+)?(?:(?:submit|send)(?:\s+(?:it|the\s+form|form|that))?|(?:press|hit)\s+(?:enter|return)(?:\s+key)?)$/i;
const SWITCH =
  /\b(?:switch|change|go|move|jump|flip|swap)\b.*\btabs?\b|\bswitch\s+(?:over\s+)?to\s+(?:it|that|this)\b|^switch$/i;
const NEW_TAB = /\b(?:in\s+)?(?:a|the|one)?\s*(?:new|second|another|2nd|separate|other)\s+tab\b/i;
const OPENS_NEW_TAB = /\b(?:open|opens|opening|click|follow|press|launch)\b/i;
const SEARCH =
  /\bsearch\b(?:\s+(?:(?:the|this|that|our|your)\s+)?[\p{L}\p{N}-]+(?:\s+[\p{L}\p{N}-]+)?)?\s+for\s+(.+)$|\bsearch\s+(?:for\s+)?(.+)$/iu;
const TYPE_INTO =
  /\b(?:type|enter|write|input|put|insert|fill\s+in)\s+(.+?)\s+(?:in|into|inside|in\s+to|on)\s+(?:the\s+)?(.+)$/i;
const FILL_WITH = /\bfill(?:\s+in|\s+out)?\s+(?:the\s+)?(.+?)\s+with\s+(.+)$/i;
const TYPE_ONLY = /\b(?:type|input)\s+(.+)$|\b(?:enter|write)\s+(⟦q\d+⟧.*)$/i;
const CLICK = /\b(?:click|press|tap|hit|push|follow|activate)\b(?:\s+(?:on|at))?\s*(.*)$/i;
const OPEN =
  /\b(?:open|go\s+to|goto|visit|navigate(?:\s+to)?|load|browse(?:\s+to)?|head(?:\s+over)?\s+to|take\s+me\s+to|bring\s+up|pull\s+up|check\s+out)\b\s*(.*)$/i;
const ORDINALS: Record<string, number> = {
  first: 1,
  '1st': 1,
  second: 2,
  '2nd': 2,
  third: 3,
  '3rd': 3,
  fourth: 4,
  '4th': 4,
  fifth: 5,
  '5th': 5,
  last: -1,
};

const TABLE_CUE = /\b(?:extract|tabulate|scrape|tables?|prices?|pricing|costs?|how\s+much|catalog(?:ue)?)\b/i;
const LIST_VERB = /\b(?:list|show|give|get|collect|gather|find|what\s+are|which)\b/i;
const LIST_NOUN = /\b(?:products?|items?|names|offers|goods|things|entries|articles)\b/i;
const SUMMARY_CUE =
  /\b(?:summar\w*|sum\s+up|tl;?\s?dr|gist|overview|outline|describe|recap|main\s+points|key\s+points|about|read|what\s+does\s+it\s+say|tell\s+me\s+what|what(?:'s|\s+is)\s+(?:on|in))\b/i;
const SUMMARY_STRONG = /\b(?:summar\w*|sum\s+up|tl;?\s?dr|gist|overview|recap|main\s+points|key\s+points)\b/i;
const BROWSER_NOUN = /\b(?:page|site|website|web\s*page|tab|browser|link|url)\b/i;

const GREETING =
  /^\s*(?:hi|hello|hey|hiya|howdy|yo|greetings|good\s+(?:morning|afternoon|evening)|hallo|bonjour|hola|你好)\b/i;
const HELP =
  /\b(?:what\s+can\s+you\s+do|what\s+do\s+you\s+do|help|who\s+are\s+you|what\s+are\s+you|capabilit\w*|how\s+(?:do|does|can)\s+(?:i|you|this|it)|configur\w*|api\s+key|llm|what\s+is\s+mimo|offline\s+planner)\b/i;
const THANKS = /^\s*(?:thanks|thank\s+you|thx|cheers|great|cool|ok|okay|nice|perfect)\b/i;

export function parseRequest(text: string): RequestIntent {
  const request = maskRequest(text);
  const clauses = request.masked
    .split(CLAUSE_SPLIT)
    .map((c) => c.trim())
    .filter(Boolean);
  const actions: PlannedAction[] = [];
  let url = request.urls[0];
  let path = url ? undefined : request.paths[0];
  let newTabHint: string | undefined;
  let wantsNewTab = false;
  let wantsSwitch = false;
  let switchTabId: number | undefined;
  const dropped: DroppedPart[] = [];
  let addingNoun: string | undefined;
  /** Clauses read as actions: their words ("set the house price to ...") are not answer cues. */
  const actionClauses = new Set<string>();

  for (const clause of clauses) {
    const adding = addingNoun;
    addingNoun = undefined;
    if (SUBMIT_ONLY.test(clause)) {
      const lastType = [...actions].reverse().find((a) => a.kind === 'type');
      if (lastType && lastType.kind === 'type') lastType.submit = true;
      continue;
    }
    const unsupported = UNSUPPORTED.find(([pattern]) => pattern.test(clause.replace(/⟦[qup]\d+⟧/g, ' ')));
    if (unsupported) {
      dropped.push({ text: unmask(clause, request), reason: unsupported[1] });
      continue;
    }
    if (SWITCH.test(clause) && !/⟦[up]\d+⟧/.test(clause)) {
      wantsSwitch = true;
      const id = /\btab\s*(?:#|id\s*|number\s*)?(\d+)\b/i.exec(clause);
      if (id) switchTabId = Number(id[1]);
      continue;
    }
    if (NEW_TAB.test(clause) && OPENS_NEW_TAB.test(clause) && !/⟦[up]\d+⟧/.test(clause)) {
      wantsNewTab = true;
      newTabHint =
        firstQuote(clause, request) ??
        cleanTarget(unmask(clause.replace(NEW_TAB, ' ').replace(OPENS_NEW_TAB, ' '), request));
      continue;
    }
    const form = SWITCH.test(clause) ? null : formActionOf(clause, request);
    if (form) {
      actionClauses.add(clause);
      actions.push(form);
      if (form.kind === 'type' && form.adds) addingNoun = form.adds;
      continue;
    }
    const search = SEARCH.exec(clause);
    if (search) {
      actionClauses.add(clause);
      actions.push({
        kind: 'type',
        text: cleanTypedText(search[1] ?? search[2]!, request),
        field: 'search',
        submit: true,
      });
      continue;
    }
    const into = TYPE_INTO.exec(clause);
    if (into) {
      actionClauses.add(clause);
      actions.push({
        kind: 'type',
        text: cleanTypedText(into[1]!, request),
        field: cleanField(unmask(into[2]!, request)),
        submit: false,
      });
      continue;
    }
    const fill = FILL_WITH.exec(clause);
    if (fill) {
      actionClauses.add(clause);
      actions.push({
        kind: 'type',
        text: cleanTypedText(fill[2]!, request),
        field: cleanField(unmask(fill[1]!, request)),
        submit: false,
      });
      continue;
    }
    const typeOnly = TYPE_ONLY.exec(clause);
    if (typeOnly) {
      actionClauses.add(clause);
      actions.push({ kind: 'type', text: cleanTypedText(typeOnly[1] ?? typeOnly[2]!, request), submit: false });
      continue;
    }
    const click = CLICK.exec(clause);
    if (click && click[1]!.trim()) {
      const action = clickAction(click[1]!, request);
      if (action) {
        actionClauses.add(clause);
        actions.push(action);
      }
      continue;
    }
    const open = OPEN.exec(clause);
    if (open) {
      const place = /⟦u(\d+)⟧/.exec(open[1]!) ?? /⟦p(\d+)⟧/.exec(open[1]!);
      if (place) continue; // the URL or path is taken from the whole request
      const target =
        firstQuote(open[1]!, request) ??
        cleanTarget(unmask(open[1]!, request).replace(/\b(?:page|site|website|section|screen)\b/gi, ' '));
      if (target && !/^(?:it|this|that|them)$/i.test(target)) {
        actionClauses.add(clause);
        actions.push({ kind: 'click', target });
      }
      continue;
    }
    if (adding && !/⟦[up]\d+⟧/.test(clause)) {
      // "add todos called A, B and C": the bare items after an add are more items to add.
      const text = cleanItemText(clause, request);
      if (text && !isAnswerCue(clause)) {
        actionClauses.add(clause);
        actions.push({ kind: 'type', text, submit: true, adds: adding });
        addingNoun = adding;
        continue;
      }
    }
    if (isAnswerCue(clause) || isFiller(clause)) continue;
    const why = UNSUPPORTED_IF_UNREAD.find(([pattern]) => pattern.test(clause.replace(/⟦[qup]\d+⟧/g, ' ')));
    dropped.push({
      text: unmask(clause, request),
      reason: why ? why[1] : 'I could not map this part to an action I know',
    });
  }

  if (wantsNewTab || wantsSwitch) {
    const clickedBefore = actions.some((a) => a.kind === 'click');
    const action: PlannedAction = {
      kind: 'switch_tab',
      openFirst: wantsNewTab && !clickedBefore && switchTabId === undefined,
    };
    if (switchTabId !== undefined) action.tabId = switchTabId;
    if (newTabHint) action.linkHint = newTabHint;
    actions.push(action);
  }

  const cueText = clauses
    .filter((c) => !actionClauses.has(c))
    .join(' ')
    .replace(/⟦[qup]\d+⟧/g, ' ');
  const table = TABLE_CUE.test(cueText) || (LIST_VERB.test(cueText) && LIST_NOUN.test(cueText));
  const summary = SUMMARY_CUE.test(cueText);
  const browserish =
    url !== undefined || path !== undefined || actions.length > 0 || table || (summary && BROWSER_NOUN.test(cueText));
  if (!browserish) {
    if (GREETING.test(text)) return { kind: 'chat', topic: 'greeting' };
    if (HELP.test(text)) return { kind: 'chat', topic: 'help' };
    if (THANKS.test(text)) return { kind: 'chat', topic: 'thanks' };
    if (SUMMARY_STRONG.test(cueText))
      return { kind: 'browser', actions: [], answer: 'summary', ...(dropped.length ? { dropped } : {}) };
    return dropped.length ? { kind: 'unknown', dropped } : { kind: 'unknown' };
  }
  const answer: AnswerKind = table ? 'table' : summary || actions.length === 0 ? 'summary' : 'report';
  const intent: RequestIntent = { kind: 'browser', actions, answer, ...(dropped.length ? { dropped } : {}) };
  if (url !== undefined) intent.url = url;
  else if (path !== undefined) intent.path = path;
  return intent;
}

const FILLER = new Set([
  'please',
  'it',
  'me',
  'for',
  'now',
  'also',
  'there',
  'here',
  'too',
  'thank',
  'thanks',
  'ok',
  'okay',
  'then',
  'so',
  'just',
  'all',
  'done',
  'finally',
  'first',
  'next',
  'afterwards',
  'after',
  'that',
  'do',
  'can',
  'you',
  'could',
  'would',
  'will',
  'i',
  'want',
  'need',
  'like',
  'let',
  's',
  'us',
  'go',
  'ahead',
]);

function isFiller(clause: string): boolean {
  return keywordsOf(clause.replace(/⟦[qup]\d+⟧/g, ' ')).every((w) => FILLER.has(w));
}

function isAnswerCue(clause: string): boolean {
  const text = clause.replace(/⟦[qup]\d+⟧/g, ' ');
  return (
    TABLE_CUE.test(text) ||
    SUMMARY_CUE.test(text) ||
    (LIST_VERB.test(text) && LIST_NOUN.test(text)) ||
    /(?:tell|report|show|let)\s+me|what|how\s+many|confirm/i.test(text)
  );
}

function clickAction(rest: string, request: MaskedRequest): PlannedAction | null {
  let ordinal: number | undefined;
  const ord = /\b(first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last)\b/i.exec(rest.replace(/⟦q\d+⟧/g, ' '));
  if (ord) ordinal = ORDINALS[ord[1]!.toLowerCase()];
  const quoted = firstQuote(rest, request);
  const target =
    quoted ??
    cleanTarget(
      unmask(rest, request).replace(/\b(?:first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last)\b/gi, ' '),
    );
  if (!target || /^(?:enter|return)$/i.test(target)) return null;
  return ordinal !== undefined ? { kind: 'click', target, ordinal } : { kind: 'click', target };
}

/** "the Next button" -> "Next"; "on the link to the article" -> "article". */
function cleanTarget(text: string): string {
  let out = text.trim().replace(/[.!?]+$/, '');
  for (let i = 0; i < 3; i++) {
    out = out
      .replace(/^(?:please\s+|on\s+|at\s+|the\s+|a\s+|an\s+|one\s+)+/i, '')
      .replace(
        /^(?:button|link|tab|element|item|entry|option|menu\s+item)s?\s+(?:to|for|called|named|labell?ed|saying|that\s+says|with(?:\s+the)?\s+text|reading)?\s*/i,
        '',
      )
      .replace(
        /\s+(?:button|link|tab|element|icon|item|entry|option|menu|dropdown|drop-down|column\s+header|column|header)s?$/i,
        '',
      )
      .replace(/^(?:to|for|called|named|labell?ed|saying)\s+/i, '')
      .trim();
  }
  return out;
}

function cleanField(text: string): string {
  return text
    .replace(/[.!?]+$/, '')
    .replace(/\b(?:the|a|an)\b/gi, ' ')
    .replace(/\b(?:text\s*field|text\s*box|textbox|textarea|text\s*area|field|box|input|area|form)\b/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function cleanTypedText(raw: string, request: MaskedRequest): string {
  const quoted = firstQuote(raw, request);
  if (quoted !== undefined) return quoted;
  return unmask(raw, request)
    .replace(/^(?:the\s+)?(?:text|words?|phrase|query|term)\s+/i, '')
    .replace(/[.!?]+$/, '')
    .trim();
}
