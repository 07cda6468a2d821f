// Which tool calls are held for the person's yes (issue 23): the word list in four languages,
// sensitive fields, files, and steps outside the scope.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { PageElement } from '../../llm/llm-types.ts';
import { heldStepOf } from '../consequential-step.ts';
import { CONSEQUENTIAL_WORDS, consequentialWordIn, downloadsFile, sensitiveFieldKind } from '../consequential-words.ts';
import { createTaskScope } from '../task-scope.ts';
import { pageElementOf } from '../page-context.ts';
import { axModel } from '../../../extension/background/ax-model.ts';
import type { AxNode } from '../../../extension/background/ax-tree.ts';
import { readFileSync } from 'node:fs';

const words = suite('consequential words');

words('every listed word is found in a button name, in each language', () => {
  for (const [lang, list] of Object.entries(CONSEQUENTIAL_WORDS)) {
    for (const word of list) assert.ok(consequentialWordIn(`  ${word.toUpperCase()} `), `${lang}: ${word}`);
  }
});

words('real button names: purchase, pay, transfer, send, delete, confirm order', () => {
  for (const name of [
    'Buy now',
    'Place order',
    'Pay 1,299.00 EUR',
    'Confirm order',
    'Send money',
    'Transfer',
    'Delete all',
    'Remove from cart',
    'Jetzt kaufen',
    'Zahlungspflichtig bestellen',
    'Überweisung ausführen',
    'Löschen',
    'Valider la commande',
    'Payer',
    'Effectuer le virement',
    'Supprimer',
    'Confirmar pedido',
    'Pagar ahora',
    'Eliminar',
    'Enviar transferencia',
  ]) {
    assert.ok(consequentialWordIn(name), name);
  }
});

words('harmless names and words that merely contain one do not match', () => {
  for (const name of [
    'Next page',
    'Search',
    'Sender details',
    'Godsend',
    'Payload viewer',
    'Ordinal',
    'Inbox',
    'Read more',
    'Weiter',
    'Suivant',
    'Siguiente',
  ]) {
    assert.is(consequentialWordIn(name), null, name);
  }
});

words('on a plain link, a noun alone is a title, not an action ("Your order shipped"); verbs still count', () => {
  assert.is(consequentialWordIn('Your order shipped', { link: true }), null);
  assert.is(consequentialWordIn('Virement reçu', { link: true }), null);
  assert.is(consequentialWordIn('Order now and pay later', { link: true }), 'pay');
  assert.is(consequentialWordIn('Delete this mail', { link: true }), 'delete');
  assert.is(consequentialWordIn('Order'), 'order', 'a button that reads "Order" acts');
});

words('a form action URL reads too (path words)', () => {
  assert.is(consequentialWordIn('/account/transfer'), 'transfer');
  assert.is(consequentialWordIn('/mail/delete-all'), 'delete all');
});

words('sensitive fields by type, autocomplete or name, in four languages', () => {
  assert.is(sensitiveFieldKind({ type: 'password', words: [] }), 'password');
  assert.is(sensitiveFieldKind({ autocomplete: 'cc-number', words: [] }), 'payment');
  assert.is(sensitiveFieldKind({ autocomplete: 'one-time-code', words: [] }), 'one-time-code');
  assert.is(sensitiveFieldKind({ type: 'text', words: ['Card number'] }), 'payment');
  assert.is(sensitiveFieldKind({ type: 'text', words: ['CVC'] }), 'payment');
  assert.is(sensitiveFieldKind({ type: 'text', words: ['Verification code'] }), 'one-time-code');
  assert.is(sensitiveFieldKind({ type: 'text', words: ['Mot de passe'] }), 'password');
  assert.is(sensitiveFieldKind({ type: 'text', words: ['Kennwort'] }), 'password');
  assert.is(sensitiveFieldKind({ type: 'text', words: ['Contraseña'] }), 'password');
  assert.is(sensitiveFieldKind({ type: 'text', words: ['Search mail'] }), null);
  assert.is(sensitiveFieldKind({ type: 'email', words: ['Email'] }), null);
});

words('downloads: a file link or a download word', () => {
  assert.ok(downloadsFile({ href: 'https://x.example.com/files/report.pdf', words: ['Report'] }));
  assert.ok(downloadsFile({ words: ['Télécharger'] }));
  assert.not.ok(downloadsFile({ href: '/inbox', words: ['Inbox'] }));
});

words.run();

const steps = suite('held steps');
const scope = () => {
  const s = createTaskScope();
  s.noteRequest('on https://mail.example.com read my newest mail');
  return s;
};
const el = (clickId: number, extra: Partial<PageElement>): PageElement => ({ clickId, tag: 'button', ...extra });
const facts = (
  toolName: string,
  args: Record<string, unknown>,
  elements: PageElement[] = [],
  pageUrl = 'https://mail.example.com/inbox',
) => ({ toolName, args, elements, pageUrl, scope: scope() });

steps('browser_open outside the scope is held; inside it is not', () => {
  assert.is(heldStepOf(facts('browser_open', { url: 'https://evil.net/?code=123456' }))?.kind, 'off_scope_navigation');
  assert.is(heldStepOf(facts('browser_open', { url: 'https://evil.net/' }))?.site, 'evil.net');
  assert.is(heldStepOf(facts('browser_open', { url: 'https://login.example.com/' })), null);
});

steps('a link off scope is held as navigation, or as a new tab for target=_blank', () => {
  const links = [
    el(1, { tag: 'a', text: 'Claim prize', href: 'https://evil.net/win' }),
    el(2, { tag: 'a', text: 'Open', href: 'https://evil.net/', target: '_blank' }),
    el(3, { tag: 'a', text: 'Inbox', href: '/inbox' }),
  ];
  assert.is(heldStepOf(facts('browser_click', { clickId: 1 }, links))?.kind, 'off_scope_navigation');
  assert.is(heldStepOf(facts('browser_click', { clickId: 2 }, links))?.kind, 'off_scope_new_tab');
  assert.is(heldStepOf(facts('browser_click', { clickId: 3 }, links)), null);
});

steps('a consequential button is held with its accessible name; Enter on it too', () => {
  const held = heldStepOf(facts('browser_click', { clickId: 4 }, [el(4, { text: 'Delete all' })]));
  assert.is(held?.kind, 'consequential_button');
  assert.is(held?.element, 'Delete all');
  assert.is(held?.site, 'example.com');
  assert.is(
    heldStepOf(facts('browser_press', { clickId: 4, key: 'Enter' }, [el(4, { text: 'Delete all' })]))?.kind,
    'consequential_button',
  );
  assert.is(heldStepOf(facts('browser_click', { clickId: 5 }, [el(5, { text: 'Next' })])), null);
});

steps('typing into a password / payment / code field is held, the value masked', () => {
  const held = heldStepOf(
    facts('browser_type', { clickId: 6, text: 'hunter22' }, [
      el(6, { tag: 'input', type: 'password', placeholder: 'Password' }),
    ]),
  );
  assert.is(held?.kind, 'sensitive_field');
  assert.is(held?.value, '••••••••');
  assert.not.ok(JSON.stringify(held).includes('hunter22'));
  assert.is(
    heldStepOf(
      facts('browser_type', { clickId: 7, text: '4111 1111 1111 1111' }, [
        el(7, { tag: 'input', type: 'text', text: 'Card number' }),
      ]),
    )?.kind,
    'sensitive_field',
  );
  assert.is(
    heldStepOf(
      facts('browser_type', { clickId: 8, text: 'otters' }, [
        el(8, { tag: 'input', type: 'search', placeholder: 'Search mail' }),
      ]),
    ),
    null,
  );
});

steps('a {{secret:...}} typed into an ordinary field is held (the placeholder shown, not a value)', () => {
  const held = heldStepOf(
    facts('browser_type', { clickId: 8, text: '{{secret:mail}}' }, [
      el(8, { tag: 'input', type: 'text', placeholder: 'Comment' }),
    ]),
  );
  assert.is(held?.kind, 'sensitive_field');
  assert.is(held?.value, '{{secret:mail}}');
});

steps('a form submit on a page outside the scope is held (button, Enter, type+submit)', () => {
  const off = 'https://evil.net/login';
  assert.is(
    heldStepOf(facts('browser_click', { clickId: 9 }, [el(9, { text: 'Continue', type: 'submit' })], off))?.kind,
    'off_scope_submit',
  );
  assert.is(heldStepOf(facts('browser_press', { key: 'Enter' }, [], off))?.kind, 'off_scope_submit');
  assert.is(
    heldStepOf(
      facts(
        'browser_type',
        { clickId: 10, text: 'x', submit: true },
        [el(10, { tag: 'input', type: 'text', text: 'Name' })],
        off,
      ),
    )?.kind,
    'off_scope_submit',
  );
  const typing = heldStepOf(
    facts('browser_type', { clickId: 10, text: '482913' }, [el(10, { tag: 'input', type: 'text', text: 'Name' })], off),
  );
  assert.is(typing?.kind, 'off_scope_submit', 'a page outside the scope can read typing before any submit');
  assert.match(typing!.reason, /types into a page/);
  assert.is(
    heldStepOf(facts('browser_click', { clickId: 9 }, [el(9, { text: 'Continue', type: 'submit' })])),
    null,
    'in scope: goes ahead',
  );
});

steps('files: a download link, a file input', () => {
  assert.is(
    heldStepOf(
      facts('browser_click', { clickId: 11 }, [
        el(11, { tag: 'a', text: 'Invoice', href: 'https://mail.example.com/a/invoice.pdf' }),
      ]),
    )?.kind,
    'file_transfer',
  );
  assert.is(
    heldStepOf(facts('browser_click', { clickId: 12 }, [el(12, { tag: 'input', type: 'file', text: 'Attach' })]))?.kind,
    'file_transfer',
  );
});

steps("an element the runtime has not seen (not on the last page read) is the person's call", () => {
  assert.match(
    heldStepOf(facts('browser_click', { clickId: 77 }, [el(1, { text: 'Next' })]))!.reason,
    /not on the last page read/,
  );
});

steps('reads never wait', () => {
  for (const name of ['browser_read_page', 'browser_screenshot', 'browser_list_elements', 'browser_hover'])
    assert.is(heldStepOf(facts(name, { clickId: 4 }, [el(4, { text: 'Delete all' })])), null, name);
});

// h21's page model (the accessibility tree): elements carry a role, the accessible name as `text`
// (buttons, links, menu items) or `label` (form fields), `name` is a field's name attribute, and
// states. Read from a tree recorded from Chromium, as the extension lists it and the agent keeps it.
steps(
  'the accessibility-tree page model: the modal\'s "Delete" is held by its accessible name, "Cancel", a link and tree items are not',
  () => {
    const recorded = JSON.parse(
      readFileSync(new URL('../../../extension/test/ax/aria-widgets.ax.json', import.meta.url), 'utf8'),
    ) as { mainFrameId: string; main: AxNode[]; modal: AxNode[] };
    const listed = (nodes: AxNode[]) =>
      axModel([{ frameId: recorded.mainFrameId, nodes }])
        .entries.filter((e) => !e.behindModal)
        .map((e, i) => pageElementOf({ clickId: i + 1, ...e.element }));
    const modal = listed(recorded.modal);
    const byText = (elements: PageElement[], text: string) => elements.find((e) => e.text === text)!;
    const del = byText(modal, 'Delete');
    assert.equal([del.tag, del.role], ['button', 'button'], 'the real shape: a role and the accessible name');
    const held = heldStepOf(facts('browser_click', { clickId: del.clickId }, modal));
    assert.equal([held?.kind, held?.element], ['consequential_button', 'Delete']);
    assert.is(heldStepOf(facts('browser_click', { clickId: byText(modal, 'Cancel').clickId }, modal)), null);
    const page = listed(recorded.main);
    assert.is(
      heldStepOf(facts('browser_click', { clickId: byText(page, 'Delete account').clickId }, page))?.kind,
      'consequential_button',
    );
    for (const text of ['src', 'Bold', 'Day'])
      assert.is(heldStepOf(facts('browser_click', { clickId: byText(page, text).clickId }, page)), null, text);
    const home = byText(page, 'Home');
    assert.equal([home.tag, home.role], ['a', 'link']);
  },
);

steps(
  'the accessibility-tree shape of fields and menu items: a password textbox (type from the DOM), a card field named by its label, a "Delete" menu item, a link that reads as a title',
  () => {
    const ax = [
      el(1, { tag: 'input', role: 'textbox', label: 'Password', type: 'password', name: 'pw' }),
      el(2, { tag: 'input', role: 'textbox', label: 'Card number', name: 'cc' }),
      el(3, { tag: 'menuitem', role: 'menuitem', text: 'Delete conversation' }),
      el(4, { tag: 'a', role: 'link', text: 'Your order shipped', href: '/orders/1' }),
      el(5, { tag: 'input', role: 'searchbox', type: 'search', label: 'Search mail' }),
      el(6, { tag: 'a', role: 'menuitem', text: 'Order', href: '/order' }),
    ];
    assert.equal(
      [
        heldStepOf(facts('browser_type', { clickId: 1, text: 'hunter22' }, ax))?.kind,
        heldStepOf(facts('browser_type', { clickId: 1, text: 'hunter22' }, ax))?.element,
      ],
      ['sensitive_field', 'Password'],
    );
    assert.is(
      heldStepOf(facts('browser_type', { clickId: 2, text: '4111 1111 1111 1111' }, ax))?.kind,
      'sensitive_field',
    );
    assert.is(heldStepOf(facts('browser_click', { clickId: 3 }, ax))?.element, 'Delete conversation');
    assert.is(heldStepOf(facts('browser_click', { clickId: 4 }, ax)), null, 'a link whose name is a noun is a title');
    assert.is(heldStepOf(facts('browser_type', { clickId: 5, text: 'otters' }, ax)), null);
    assert.is(
      heldStepOf(facts('browser_click', { clickId: 6 }, ax))?.kind,
      'consequential_button',
      'a menu item acts (even an <a role=menuitem>): "Order" there is a command, not a title',
    );
  },
);

steps.run();
