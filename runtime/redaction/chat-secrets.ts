// Password-like values in what the person writes in the chat: "type hunter2 into the
// password field", "my password is hunter2", "PIN: 4711", "Passwort ist geheim". The values found
// are registered as run-time secrets before the message is stored, recorded or relayed, so the
// message, the task title, index.jsonl, the recording, the Stately bridge and the live chatDelta
// show `[redacted]` (redact.ts does the replacing). The model still gets the message as written:
// it needs the value to type it.
//
// Two shapes, in English, German, French and Spanish:
//  - a credential word, a separator (is, :, =, ist, est, es, lautet), then the value;
//    without a separator ("password hunter2") only a value that looks like one (a digit or a sign,
//    4 characters or more: "pin 3 tabs" names no PIN);
//  - a typing verb, the value, then "into/in/as ... password/PIN/code field".
// A value is a quoted string or one run of non-space characters (trailing punctuation dropped).
// Words that stand where a value would ("type it into the password field") are not values.
import type { SecretRegistry } from './redact.ts';

const CREDENTIAL =
  '(?:pass(?:word|wd|phrase|code)|pwd|pw|pin(?:\\s*code)?|one[- ]time\\s+(?:code|password)|otp|2fa\\s+code|verification\\s+code|security\\s+code|passwort|kennwort|mot\\s+de\\s+passe|contrase(?:ñ|n)a|clave)';
const SEPARATOR = '(?:\\s*[:=]\\s*|\\s+(?:is|was|ist|lautet|est|es)\\b\\s*:?\\s*)';
const VALUE =
  '(?:"([^"\\n]{1,200})"|\'([^\'\\n]{1,200})\'|`([^`\\n]{1,200})`|“([^”\\n]{1,200})”|([^\\s"\'`“”]{1,200}))';
const VERB = '(?:type|enter|put|fill\\s+in|use|input|paste|write|tippe|gib|eingeben|tape|saisis|escribe|introduce)';
const FIELD_AFTER = `\\s+(?:in|into|as|in\\s+das|ins|dans|en)\\s+(?:the\\s+|das\\s+|le\\s+|el\\s+|my\\s+|its\\s+)?(?:[\\w-]+\\s+){0,2}${CREDENTIAL}`;

const AFTER_WORD = new RegExp(`\\b${CREDENTIAL}${SEPARATOR}${VALUE}`, 'giu');
const AFTER_WORD_BARE = new RegExp(`\\b${CREDENTIAL}\\s+${VALUE}`, 'giu');
const VERB_INTO_FIELD = new RegExp(`\\b${VERB}\\s+${VALUE}${FIELD_AFTER}`, 'giu');

/** Words that can stand where a value would, but are not one. */
const NOT_VALUES = new Set([
  'it',
  'this',
  'that',
  'them',
  'the',
  'a',
  'an',
  'my',
  'your',
  'his',
  'her',
  'our',
  'their',
  'its',
  'same',
  'below',
  'above',
  'here',
  'there',
  'field',
  'box',
  'input',
  'for',
  'of',
  'and',
  'or',
  'to',
  'in',
  'into',
  'on',
  'with',
  'from',
  'please',
  'again',
  'now',
  'then',
  'if',
  'when',
  'is',
  'was',
  'ist',
  'est',
  'es',
  'not',
  'no',
  'yes',
  'reset',
  'manager',
  'change',
  'login',
  'required',
  'hidden',
  'secret',
  'der',
  'die',
  'das',
  'mein',
  'le',
  'mon',
  'el',
  'mi',
  'password',
  'passwort',
  'pin',
  'code',
]);

/** The value, and for a bare one also the form without trailing punctuation ("S3cret!" may end a sentence or the password). */
function valuesOf(match: RegExpMatchArray): { values: string[]; quoted: boolean } | null {
  for (let group = 1; group <= 4; group++) {
    const raw = match[group];
    if (raw !== undefined && raw !== '' && !raw.includes('[redacted]')) return { values: [raw], quoted: true };
  }
  const raw = match[5];
  if (raw === undefined || raw.includes('[redacted]')) return null;
  const trimmed = raw.replace(/[.,;!?)\]}>]+$/u, '');
  if (trimmed === '' || NOT_VALUES.has(trimmed.toLowerCase())) return null;
  return { values: trimmed === raw ? [raw] : [raw, trimmed], quoted: false };
}

/** Looks like a credential rather than a word: has a digit or a sign. */
const looksSecret = (value: string) => /[\p{N}\p{P}\p{S}]/u.test(value);

/** The password-like values in a chat text, longest first, without repeats. */
export function secretsInChat(text: string): string[] {
  const found = new Set<string>();
  for (const pattern of [AFTER_WORD, VERB_INTO_FIELD]) {
    for (const match of text.matchAll(pattern)) for (const value of valuesOf(match)?.values ?? []) found.add(value);
  }
  for (const match of text.matchAll(AFTER_WORD_BARE)) {
    const candidate = valuesOf(match);
    // Without a separator a short value is more likely a count ("pin 3 tabs") than a PIN.
    const bare = candidate?.values.at(-1);
    if (candidate && (candidate.quoted || (looksSecret(bare!) && bare!.length >= 4)))
      for (const value of candidate.values) found.add(value);
  }
  return [...found].sort((a, b) => b.length - a.length);
}

/** Registers the chat text's password-like values; returns how many were found. */
export function noteChatSecrets(secrets: SecretRegistry | undefined, text: string): number {
  const values = secretsInChat(text);
  for (const value of values) secrets?.add(value);
  return values.length;
}
