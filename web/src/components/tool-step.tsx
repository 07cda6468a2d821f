import type { ToolArtifact } from '../../../transport/contracts/frontend-event.ts';
import type { ToolItem } from '../models/chat-items.ts';
import { artifactSrc, formatDuration } from '../text/format.ts';

const phaseText = { start: 'running', success: 'done', error: 'failed', partial: 'partial', canceled: 'canceled' } as const;

export function ToolStep({ step, onOpenImage }: { step: ToolItem; onOpenImage: (src: string, alt: string) => void }) {
  const screenshots = step.artifacts.filter((a) => a.kind === 'screenshot');
  const others = step.artifacts.filter((a) => a.kind !== 'screenshot');
  return (
    <li class={`entry tool tool-${step.phase}`} data-testid="tool-step" data-phase={step.phase}>
      <div class="tool-line">
        <span class={`tool-dot dot-${step.phase}`} aria-hidden="true" />
        <code class="tool-name">{step.actionName}</code>
        {step.paramsSummary && <span class="tool-params" title={step.paramsSummary}>{step.paramsSummary}</span>}
        <span class="tool-phase">{phaseText[step.canceled ? 'canceled' : step.phase]}</span>
        {step.durationMs !== undefined && <span class="tool-duration">{formatDuration(step.durationMs)}</span>}
      </div>
      {step.error && (
        <p class="tool-error">
          <code>{step.error.code}</code> {step.error.message}
          {step.error.retryable !== undefined && <span class="muted"> · {step.error.retryable ? 'a retry may help' : 'retrying will not help'}</span>}
        </p>
      )}
      {step.warnings.length > 0 && <p class="tool-warn">⚠ {step.warnings.join('; ')}</p>}
      {screenshots.length > 0 && (
        <div class="thumbs">
          {screenshots.map((a) => <Thumbnail key={a.artifactId} artifact={a} label={`${step.actionName} screenshot`} onOpen={onOpenImage} />)}
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
      {step.resultText !== undefined && (
        <details class="tool-result">
          <summary>Tool result</summary>
          <pre>{step.resultText.length > 4000 ? `${step.resultText.slice(0, 4000)}…` : step.resultText}</pre>
        </details>
      )}
    </li>
  );
}

function Thumbnail({ artifact, label, onOpen }: { artifact: ToolArtifact; label: string; onOpen: (src: string, alt: string) => void }) {
  const src = artifactSrc(artifact);
  if (!src) return null;
  return (
    <button type="button" class="thumb" aria-label={`Enlarge ${label}`} onClick={() => onOpen(src, label)}>
      <img src={src} alt={label} loading="lazy" />
    </button>
  );
}
