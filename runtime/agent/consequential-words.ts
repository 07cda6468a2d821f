// The words that make a button, link or form action consequential: pressing it may
// spend money, move money, send something on the person's behalf or destroy data, so the step
// waits for the person's yes. English, French, German and Spanish; matched as whole words on the
// element's accessible name (text, label, value) and on a form's action URL, case- and
// accent-insensitively. README "Consequential steps" lists the same table.

export const CONSEQUENTIAL_WORDS: Readonly<Record<'en' | 'fr' | 'de' | 'es', readonly string[]>> = {
  en: [
    'buy',
    'buy now',
    'purchase',
    'pay',
    'pay now',
    'checkout',
    'check out',
    'place order',
    'order',
    'confirm order',
    'submit order',
    'transfer',
    'send',
    'send money',
    'wire',
    'forward',
    'delete',
    'delete all',
    'remove',
    'erase',
    'empty trash',
    'subscribe',
    'donate',
  ],
  fr: [
    'acheter',
    'achat',
    'payer',
    'paiement',
    'commander',
    'passer la commande',
    'valider la commande',
    'confirmer la commande',
    'commande',
    'virement',
    'transférer',
    'transferer',
    'envoyer',
    'transférer le message',
    'supprimer',
    'effacer',
    'retirer',
    'vider la corbeille',
  ],
  de: [
    'kaufen',
    'jetzt kaufen',
    'kaufen sie',
    'bezahlen',
    'zahlen',
    'zahlungspflichtig bestellen',
    'bestellen',
    'bestellung',
    'bestellung abschicken',
    'überweisen',
    'überweisung',
    'senden',
    'absenden',
    'weiterleiten',
    'löschen',
    'alle löschen',
    'entfernen',
    'papierkorb leeren',
  ],
  es: [
    'comprar',
    'compra',
    'pagar',
    'pago',
    'pedido',
    'realizar pedido',
    'confirmar pedido',
    'hacer pedido',
    'ordenar',
    'transferir',
    'transferencia',
    'enviar',
    'reenviar',
    'eliminar',
    'borrar',
    'quitar',
    'vaciar papelera',
  ],
};

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

const ALL = [...new Set(Object.values(CONSEQUENTIAL_WORDS).flat().map(fold))].sort((a, b) => b.length - a.length);
const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '[\\s_-]+');
/** Whole words only: "send" in "Send money" and "send-money", not in "sender" or "Godsend". */
const PATTERN = new RegExp(`(?:^|[^\\p{L}\\p{N}])(${ALL.map(escape).join('|')})(?=$|[^\\p{L}\\p{N}])`, 'u');

/**
 * Bare nouns: on a button they act ("Order", "Paiement"), on a link they are mostly a title
 * ("Your order shipped", "Virement reçu"): a link is held for verbs only.
 */
const NOUNS = new Set(
  [
    'order',
    'commande',
    'achat',
    'paiement',
    'virement',
    'bestellung',
    'uberweisung',
    'pedido',
    'compra',
    'pago',
    'transferencia',
  ].map(fold),
);

/** The consequential word an element's name or a form action holds, or null. `link`: a plain link (nouns alone do not count). */
export function consequentialWordIn(text: string | undefined, options: { link?: boolean } = {}): string | null {
  if (!text) return null;
  const folded = fold(text);
  for (let from = 0; from <= folded.length;) {
    const match = PATTERN.exec(folded.slice(from));
    if (!match) return null;
    const word = match[1]!.replace(/[\s_-]+/g, ' ');
    if (!options.link || !NOUNS.has(word)) return word;
    from += match.index + match[0].length;
  }
  return null;
}

/** Names of fields whose value is a credential, a payment detail or a one-time code (any of the four languages). */
const SENSITIVE_FIELD = new RegExp(
  [
    'password',
    'passwort',
    'kennwort',
    'mot de passe',
    'contrasena',
    'passcode',
    'pin',
    'cc-number',
    'cc-csc',
    'cc-exp',
    'card number',
    'credit card',
    'kartennummer',
    'numero de carte',
    'numero de tarjeta',
    'cvc',
    'cvv',
    'csc',
    'security code',
    'one-time-code',
    'one-time',
    'otp',
    '2fa',
    'verification code',
    'authentication code',
    'code de verification',
    'bestatigungscode',
    'codigo de verificacion',
    'iban',
  ]
    .map(escape)
    .join('|'),
  'u',
);

/** What kind of sensitive field this is, from its type, autocomplete, name, label or placeholder; null for an ordinary field. */
export function sensitiveFieldKind(field: {
  type?: string | undefined;
  autocomplete?: string | undefined;
  words: Array<string | undefined>;
}): 'password' | 'payment' | 'one-time-code' | null {
  const type = field.type?.toLowerCase();
  const auto = field.autocomplete?.toLowerCase() ?? '';
  if (type === 'password' || /(?:current|new)-password/.test(auto)) return 'password';
  if (/^cc-/.test(auto)) return 'payment';
  if (auto === 'one-time-code') return 'one-time-code';
  const words = fold(field.words.filter(Boolean).join(' '));
  const match = new RegExp(`(?:^|[^\\p{L}\\p{N}])(${SENSITIVE_FIELD.source})(?=$|[^\\p{L}\\p{N}])`, 'u').exec(words);
  if (!match) return null;
  const word = match[1]!;
  if (/card|karten|carte|tarjeta|cvc|cvv|csc|security code|iban|cc-/.test(word)) return 'payment';
  if (/one-time|otp|2fa|verification|authentication|verif|bestatigung/.test(word)) return 'one-time-code';
  return 'password';
}

/** File names a link downloads (the href's last path segment), besides an explicit download word. */
const DOWNLOAD_EXTENSION =
  /\.(?:zip|rar|7z|tar|gz|tgz|exe|msi|dmg|pkg|deb|rpm|apk|pdf|docx?|xlsx?|pptx?|csv|iso|bin|sh|bat|ps1|jar)$/i;
const DOWNLOAD_WORD = /(?:^|[^\p{L}])(download|telecharger|herunterladen|descargar)(?=$|[^\p{L}])/u;

/** Does clicking this link or button download a file? */
export function downloadsFile(element: { href?: string | undefined; words: Array<string | undefined> }): boolean {
  if (element.href) {
    try {
      if (DOWNLOAD_EXTENSION.test(new URL(element.href, 'http://x/').pathname)) return true;
    } catch {
      // not a URL: fall through to the words
    }
  }
  return DOWNLOAD_WORD.test(fold(element.words.filter(Boolean).join(' ')));
}
