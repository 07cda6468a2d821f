// login_keep_session (seed 003 §4.1, §6): opens the login page in the session's main tab, fills
// the user name and password found in the DOM index (or named by hints), submits, checks that
// the login took, and keeps the session (and its tab) open for later runs or browser-shell.
// Atomic: no partial_success; a failed step stops the ones after it. Local trust only: the
// credentials are typed into the user's own browser. The password is never stored.
import { z } from 'zod';
import type { DomIndexElement } from '../../../transport/contracts/index.ts';
import { stepError, toolLayerError, type StepContext, type TaskTemplate } from './template-types.ts';

const inputs = z
  .object({
    loginUrl: z.string().min(1).max(8192).describe('the login page (http/https)'),
    username: z.string().min(1).max(256),
    password: z.string().min(1).max(1024).describe('typed into the page, never stored or returned'),
    usernameField: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe('text naming the user-name field (name, id, label, placeholder) when the guess would be wrong'),
    passwordField: z.string().min(1).max(100).optional(),
    submitField: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe('text naming the submit button; without one, the form is submitted with Enter'),
    successUrlContains: z
      .string()
      .min(1)
      .max(2048)
      .optional()
      .describe('logged in when the URL afterwards contains this'),
    successTextContains: z
      .string()
      .min(1)
      .max(500)
      .optional()
      .describe('logged in when the page text afterwards contains this'),
  })
  .strict();
type Inputs = z.infer<typeof inputs>;

const outputs = z.object({
  sessionId: z.string(),
  loggedIn: z.boolean(),
  url: z.string().optional(),
  title: z.string().optional(),
  username: z.string(),
  failedStep: z.string().optional(),
});

const STEPS = ['open_login_page', 'fill_username', 'fill_password', 'submit', 'verify'] as const;

function haystack(e: DomIndexElement): string {
  return [e.name, e.label, e.placeholder, e.text, e.type, e.role, e.xpath].filter(Boolean).join(' ').toLowerCase();
}
const isField = (e: DomIndexElement) => e.tag === 'input' || e.tag === 'textarea';
const isPassword = (e: DomIndexElement) =>
  e.tag === 'input' && (e.type === 'password' || (!e.type && /pass(word)?|passwd|pwd/.test(haystack(e))));
const isTextLike = (e: DomIndexElement) =>
  isField(e) &&
  !isPassword(e) &&
  !['submit', 'button', 'checkbox', 'radio', 'hidden', 'file', 'image', 'reset'].includes(e.type ?? '');

export function findLoginFields(
  elements: DomIndexElement[],
  hints: { username?: string | undefined; password?: string | undefined; submit?: string | undefined },
) {
  const byHint = (hint: string | undefined, pool: DomIndexElement[]) =>
    hint ? pool.find((e) => haystack(e).includes(hint.toLowerCase())) : undefined;
  const password = byHint(hints.password, elements.filter(isField)) ?? elements.find(isPassword);
  const texts = elements.filter(isTextLike);
  const before = password ? texts.filter((e) => e.clickId < password.clickId) : texts;
  const username =
    byHint(hints.username, elements.filter(isField)) ??
    before.find((e) => /user|e-?mail|login|account|phone|name/.test(haystack(e))) ??
    before[before.length - 1] ??
    texts[0];
  const buttons = elements.filter(
    (e) => e.tag === 'button' || (e.tag === 'input' && ['submit', 'button', 'image'].includes(e.type ?? '')),
  );
  const submit =
    byHint(hints.submit, elements) ??
    buttons.find((e) => e.type === 'submit') ??
    buttons.find((e) => /log\s?in|sign\s?in|submit|continue|next|enter/.test(haystack(e))) ??
    (password ? buttons.find((e) => e.clickId > password.clickId) : undefined);
  return { username, password, submit };
}

type Fields = ReturnType<typeof findLoginFields>;

function stopIfEarlierFailed(ctx: StepContext<Inputs>, index: number): void {
  const failed = ctx
    .steps()
    .slice(0, index)
    .find((s) => s.status === 'failed' || s.status === 'skipped');
  if (failed)
    throw stepError('EXECUTION_ERROR', `not run: step ${failed.stepId} did not succeed`, { after: failed.stepId });
}

export const loginKeepSession: TaskTemplate<Inputs> = {
  meta: {
    templateId: 'login_keep_session',
    version: '1.0.0',
    name: 'Log in and keep the session',
    description:
      "Fills a login form in the session's tab, submits it, verifies the login and keeps the session open (continue with its sessionId). Atomic: succeeded or failed.",
    trustLevelSupport: ['local'],
    supportsPartialSuccess: false,
    limits: { maxConcurrency: 1, maxTimeoutMs: 120_000 },
    keepsSession: true,
  },
  inputs,
  outputs,
  autoMode: () => 'sync',
  concurrency: () => 1,
  plan: () => STEPS.map((stepId) => ({ stepId })),

  async runStep(ctx, step) {
    stopIfEarlierFailed(ctx, step.index);
    const page = ctx.mainPage();
    const { inputs: i } = ctx;
    switch (step.stepId) {
      case 'open_login_page': {
        const opened = await page.open(i.loginUrl, ctx.signal);
        if (!opened.ok) throw toolLayerError(opened.error, 'navigate');
        const indexed = await page.domIndex(ctx.signal);
        if (!indexed.ok) throw toolLayerError(indexed.error, 'index');
        const fields = findLoginFields(indexed.value.elements, {
          username: i.usernameField,
          password: i.passwordField,
          submit: i.submitField,
        });
        if (!fields.password)
          throw stepError('ELEMENT_NOT_FOUND', 'no password field on the login page', {
            hint: i.passwordField ?? null,
          });
        if (!fields.username)
          throw stepError('ELEMENT_NOT_FOUND', 'no user-name field on the login page', {
            hint: i.usernameField ?? null,
          });
        ctx.scratch.fields = fields;
        return {
          url: opened.value.url,
          fieldsFound: {
            username: fields.username.clickId,
            password: fields.password.clickId,
            submit: fields.submit?.clickId ?? null,
          },
        };
      }
      case 'fill_username': {
        const fields = ctx.scratch.fields as Fields;
        const typed = await page.type(fields.username!.clickId, i.username, false, ctx.signal);
        if (!typed.ok) throw toolLayerError(typed.error, 'fill');
        return { filled: 'username' };
      }
      case 'fill_password': {
        const fields = ctx.scratch.fields as Fields;
        const typed = await page.type(fields.password!.clickId, i.password, false, ctx.signal);
        if (!typed.ok) throw toolLayerError(typed.error, 'fill');
        return { filled: 'password' };
      }
      case 'submit': {
        const fields = ctx.scratch.fields as Fields;
        const done = fields.submit
          ? await page.click(fields.submit.clickId, ctx.signal)
          : await page.type(fields.password!.clickId, i.password, true, ctx.signal);
        if (!done.ok) throw toolLayerError(done.error, 'submit');
        return { submittedWith: fields.submit ? 'click' : 'enter' };
      }
      default: {
        const loaded = await page.waitLoaded(undefined, ctx.signal);
        if (!loaded.ok) throw toolLayerError(loaded.error, 'wait');
        const url = page.currentUrl() ?? loaded.value.url;
        const read = await page.readText(ctx.signal);
        const indexed = await page.domIndex(ctx.signal);
        const title = read.ok ? read.value.title : '';
        let loggedIn: boolean;
        let why: string;
        if (i.successUrlContains || i.successTextContains) {
          const urlOk = i.successUrlContains ? url.includes(i.successUrlContains) : true;
          const textOk = i.successTextContains
            ? read.ok && read.value.text.toLowerCase().includes(i.successTextContains.toLowerCase())
            : true;
          loggedIn = urlOk && textOk;
          why = !urlOk
            ? `the URL afterwards (${url}) does not contain "${i.successUrlContains}"`
            : `the page text does not contain "${i.successTextContains}"`;
        } else {
          loggedIn = indexed.ok && !indexed.value.elements.some(isPassword);
          why = indexed.ok ? 'the page still shows a password field' : 'the page could not be indexed after submitting';
        }
        if (!loggedIn) throw stepError('EXECUTION_ERROR', `the login did not take: ${why}`, { url });
        return { loggedIn: true, url, title };
      }
    }
  },

  buildResult(i, steps, extra) {
    const verify = steps.find((s) => s.stepId === 'verify');
    const out = verify?.status === 'succeeded' ? (verify.output as { url: string; title: string }) : undefined;
    const failed = steps.find((s) => s.status === 'failed');
    const result = {
      sessionId: extra.sessionId,
      loggedIn: verify?.status === 'succeeded',
      ...(out ? { url: out.url, title: out.title } : {}),
      username: i.username,
      ...(failed ? { failedStep: failed.stepId } : {}),
    };
    return { result, artifacts: [{ type: 'json', mimeType: 'application/json', bytes: JSON.stringify(result) }] };
  },

  redact: (i) => ({ ...i, password: '[redacted]' }),
};
