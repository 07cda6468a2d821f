import type { ToolArtifact } from '../../../transport/contracts/frontend-event.ts';
import type { ToolItem } from '../models/chat-items.ts';
import { artifactSrc, formatDuration } from '../text/format.ts';
import { actionWords, type StepGroup } from '../text/step-words.ts';
import { ErrorDetail, type ErrorActions } from './error-detail.tsx';

const phaseText = {
  start: 'running',
  success: 'done',
  error: 'failed',
  partial: 'partial',
  canceled: 'stopped',
} as const;

function resultOf(action: ToolItem): string | null {
  if (action.resultText !== undefined)
    return action.resultText.length > 4000 ? `${action.resultText.slice(0, 4000)}…` : action.resultText;
  if (action.result) return JSON.stringify(action.result, null, 1);
  return null;
}

/** One tool call in plain words, its page preparation and raw actions one click away. */
export function ToolStep({
  step,
  onOpenImage,
  actions,
}: {
  step: StepGroup;
  onOpenImage: (src: string, alt: string) => void;
  actions: ErrorActions;
}) {
  const all = step.actions;
  const screenshots = all.flatMap((a) => a.artifacts.filter((x) => x.kind === 'screenshot'));
  const others = all.flatMap((a) => a.artifacts.filter((x) => x.kind !== 'screenshot'));
  // The step's own failure says most; an unreachable site is said once, not per page-read action.
  const failure = (a: ToolItem) => a.phase === 'error' && a.error !== undefined && !a.canceled;
  const failed = step.unreachable
    ? null
    : (all.find((a) => failure(a) && a === step.primary) ?? all.find(failure) ?? null);
  const warnings = [...new Set(all.flatMap((a) => a.warnings))];
  return (
    <li
      class={`entry tool tool-${step.phase}`}
      data-testid="tool-step"
      data-phase={step.phase}
      aria-busy={step.phase === 'start'}
    >
      <div class="tool-line">
        <span class={`tool-dot dot-${step.phase}`} aria-hidden="true" />
        <span class="tool-title" data-testid="step-title">
          {step.title}
        </span>
        <span class="tool-phase">{phaseText[step.phase]}</span>
        {step.durationMs !== undefined && <span class="tool-duration">{formatDuration(step.durationMs)}</span>}
      </div>
      {failed?.error ? (
        <ErrorDetail error={failed.error} actions={actions} />
      ) : (
        step.unreachable && (
          <ErrorDetail
            error={{
              code: 'NETWORK',
              message:
                all.find((a) => a.error)?.error?.message ?? 'chrome-error: the browser could not connect to the site',
              retryable: true,
            }}
            actions={actions}
          />
        )
      )}
      {warnings.length > 0 && <p class="tool-warn">⚠ {warnings.join('; ')}</p>}
      {screenshots.length > 0 && (
        <div class="thumbs">
          {screenshots.map((a) => (
            <Thumbnail key={a.artifactId} artifact={a} label={`Screenshot: ${step.title}`} onOpen={onOpenImage} />
          ))}
        </div>
      )}
      {others.map((a) => {
        const href = artifactSrc(a);
        return href ? (
          <a key={a.artifactId} class="artifact-link" href={href} target="_blank" rel="noopener noreferrer">
            {a.kind} ({a.artifactId})
          </a>
        ) : null;
      })}
      <details class="tool-details" data-testid="step-details">
        <summary>{all.length > 1 ? `Details · ${all.length} actions` : 'Details'}</summary>
        <ol class="substeps">
          {all.map((a) => {
            const result = resultOf(a);
            const phase = a.canceled ? 'canceled' : a.phase;
            return (
              <li key={a.key} class={`substep sub-${phase}`} data-testid="substep" data-action={a.actionName}>
                <div class="substep-line">
                  <span>{actionWords(a)}</span>
                  <span class="tool-phase">{phaseText[phase]}</span>
                  {a.durationMs !== undefined && <span class="tool-duration">{formatDuration(a.durationMs)}</span>}
                </div>
                <div class="raw">
                  <code class="tool-name">{a.actionName}</code>{' '}
                  {a.paramsSummary && <code class="tool-params">{a.paramsSummary}</code>}
                </div>
                {a.error && (
                  <div class="raw">
                    <code>{a.error.code}</code> {a.error.message}
                  </div>
                )}
                {result !== null && (
                  <pre class="tool-result" data-testid="step-result">
                    {result}
                  </pre>
                )}
              </li>
            );
          })}
        </ol>
      </details>
    </li>
  );
}

function Thumbnail({
  artifact,
  label,
  onOpen,
}: {
  artifact: ToolArtifact;
  label: string;
  onOpen: (src: string, alt: string) => void;
}) {
  const src = artifactSrc(artifact);
  if (!src) return null;
  return (
    <button type="button" class="thumb" aria-label={`Enlarge ${label}`} onClick={() => onOpen(src, label)}>
      <img src={src} alt={label} loading="lazy" />
    </button>
  );
}
