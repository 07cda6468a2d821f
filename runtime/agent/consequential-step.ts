// Which tool calls wait for the person's yes, decided from the call, the last page read
// and the task's scope only: never from what a page says. Pure; the gate (confirmation-gate.ts)
// asks, the hook in browser-tools.ts applies it before any browser action is sent.
//   off scope:      browser_open, a link click (a new tab for target=_blank), a form submit on a
//                   page outside the scope (a submit button, Enter, browser_type submit=true);
//   consequential:  a button or link whose accessible name reads as buy / pay / order /
//                   transfer / send / delete / remove / confirm order (consequential-words.ts);
//   sensitive:      typing into a password, payment or one-time-code field, or typing a
//                   `{{secret:name}}` into any field;
//   files:          a download link or button, a file input (upload).
// Explicit requests: a step the person named is asked too (one yes per step, "Always for this
// site" for the rest): the runtime cannot tell the person's "delete the spam" from a page's
// "delete all mail" without trusting a model's reading of both, which is what this guards against.
import type { HeldStep } from '../../transport/contracts/index.ts';
import type { PageElement } from '../llm/llm-types.ts';
import { consequentialWordIn, downloadsFile, sensitiveFieldKind } from './consequential-words.ts';
import { hasSecretPlaceholder } from './secret-placeholders.ts';
import { siteOf, type TaskScope } from './task-scope.ts';

export interface StepFacts {
  toolName: string;
  args: Record<string, unknown>;
  /** The URL of the task's tab now (the last page read, or the extension's report). */
  pageUrl: string | undefined;
  /** The elements of the last page read. */
  elements: readonly PageElement[];
  scope: TaskScope;
}

const clip = (text: string, max = 120) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The element's accessible name as the person would read it. */
export function accessibleNameOf(el: PageElement): string {
  return clip(
    [el.text, el.label, el.placeholder, el.name, el.value]
      .find((w): w is string => typeof w === 'string' && w.trim() !== '')
      ?.trim() ?? `${el.tag} #${el.clickId}`,
  );
}

function absolute(href: string, base: string | undefined): string | null {
  try {
    return new URL(href, base).href;
  } catch {
    return null;
  }
}

const isSubmitControl = (el: PageElement) =>
  (el.tag === 'button' && (!el.type || el.type === 'submit')) ||
  (el.tag === 'input' && (el.type === 'submit' || el.type === 'image'));

/** Tools that act on one element by clickId. */
const ELEMENT_TOOLS = new Set([
  'browser_click',
  'browser_dblclick',
  'browser_type',
  'browser_check',
  'browser_select',
  'browser_press',
]);

const siteLabel = (url: string | undefined) => (url ? (siteOf(url) ?? url) : 'this page');

/** A masked value for the person to see: secrets show as dots (their placeholder stays readable). */
export function maskedValue(text: string, secret: boolean): string {
  if (hasSecretPlaceholder(text)) return clip(text, 200);
  return secret ? '•'.repeat(Math.min(Math.max(text.length, 4), 12)) : clip(text, 200);
}

/** The step to hold, or null when the call may go ahead. */
export function heldStepOf(facts: StepFacts): HeldStep | null {
  const { toolName, args, pageUrl, scope } = facts;
  const held = (kind: HeldStep['kind'], reason: string, extra: Partial<HeldStep> = {}): HeldStep => ({
    kind,
    toolName,
    site: siteLabel(extra.url ?? pageUrl),
    ...(pageUrl && !extra.url ? { url: pageUrl } : {}),
    ...extra,
    reason,
  });
  const pageOffScope = pageUrl !== undefined && !scope.covers(pageUrl);

  if (toolName === 'browser_open') {
    const url = typeof args.url === 'string' ? args.url : '';
    if (!scope.covers(url))
      return held('off_scope_navigation', `${siteLabel(url)} is not in this task's scope`, { url });
    return null;
  }

  const clickId = typeof args.clickId === 'number' ? args.clickId : undefined;
  const el = clickId === undefined ? undefined : facts.elements.find((e) => e.clickId === clickId);
  const name = el ? accessibleNameOf(el) : undefined;
  const words = el ? [el.text, el.label, el.name, el.value, el.placeholder] : [];
  // An element the runtime has not seen cannot be judged: the person decides.
  if (clickId !== undefined && !el && ELEMENT_TOOLS.has(toolName)) {
    return held(
      'consequential_button',
      `element #${clickId} is not on the last page read, so Mimo cannot tell what it does`,
      {},
    );
  }

  if (toolName === 'browser_type' || (toolName === 'browser_select' && el?.tag !== 'select')) {
    const text = typeof args.text === 'string' ? args.text : Array.isArray(args.values) ? args.values.join(', ') : '';
    const kind = el ? sensitiveFieldKind({ type: el.type, words }) : null;
    if (kind)
      return held(
        'sensitive_field',
        `the field "${name}" is a ${kind === 'one-time-code' ? 'one-time code' : kind} field`,
        { ...(name ? { element: name } : {}), value: maskedValue(text, true) },
      );
    if (hasSecretPlaceholder(text))
      return held(
        'sensitive_field',
        `a secret would be typed into "${name ?? 'a field'}", which is not a password field`,
        { ...(name ? { element: name } : {}), value: maskedValue(text, true) },
      );
    if (el?.type === 'file')
      return held('file_transfer', `"${name}" uploads a file`, { element: name!, value: maskedValue(text, false) });
    if (args.submit === true && pageOffScope)
      return held('off_scope_submit', `it submits a form on ${siteLabel(pageUrl)}, outside this task's scope`, {
        ...(name ? { element: name } : {}),
        value: maskedValue(text, false),
      });
    // A page outside the scope can read what is typed before any submit: typing there asks too.
    if (pageOffScope)
      return held(
        'off_scope_submit',
        `it types into a page on ${siteLabel(pageUrl)}, outside this task's scope (the page can read it at once)`,
        { ...(name ? { element: name } : {}), value: maskedValue(text, false) },
      );
    return null;
  }

  if (toolName === 'browser_press') {
    const key = typeof args.key === 'string' ? args.key : '';
    if (!/(^|\+)enter$/i.test(key)) return null;
    if (el && consequentialWordIn(words.join(' ')))
      return held(
        'consequential_button',
        `Enter on "${name}", which reads as "${consequentialWordIn(words.join(' '))}"`,
        { element: name! },
      );
    if (pageOffScope)
      return held(
        'off_scope_submit',
        `Enter may submit a form on ${siteLabel(pageUrl)}, outside this task's scope`,
        name ? { element: name } : {},
      );
    return null;
  }

  if (toolName === 'browser_click' || toolName === 'browser_dblclick' || toolName === 'browser_check') {
    if (!el) return null;
    if (el.href && toolName !== 'browser_check') {
      const target = absolute(el.href, pageUrl);
      if (target && /^https?:/i.test(target) && !scope.covers(target)) {
        const newTab = el.target === '_blank';
        return held(
          newTab ? 'off_scope_new_tab' : 'off_scope_navigation',
          `the link "${name}" leads to ${siteLabel(target)}, outside this task's scope`,
          { url: target, element: name! },
        );
      }
    }
    if (el.type === 'file') return held('file_transfer', `"${name}" uploads a file`, { element: name! });
    if (downloadsFile({ href: el.href, words }))
      return held('file_transfer', `"${name}" downloads a file`, {
        element: name!,
        ...(el.href ? { url: absolute(el.href, pageUrl) ?? el.href } : {}),
      });
    // A link by its role (the accessibility-tree page model) or its tag (the DOM fallback).
    const word = consequentialWordIn(words.join(' '), {
      link: (el.role === 'link' || el.tag === 'a') && el.role !== 'button' && el.role !== 'menuitem',
    });
    if (word && toolName !== 'browser_check')
      return held('consequential_button', `"${name}" reads as "${word}"`, { element: name! });
    if (pageOffScope && isSubmitControl(el))
      return held('off_scope_submit', `"${name}" submits a form on ${siteLabel(pageUrl)}, outside this task's scope`, {
        element: name!,
      });
    return null;
  }
  return null;
}
