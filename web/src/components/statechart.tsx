import type { ChartNode, ChartTransition } from '../models/machine-chart.ts';

/** A statechart as nested boxes: the active states highlighted, transitions listed per state. */
export function Statechart({
  node,
  active,
  depth = 0,
}: {
  node: ChartNode;
  active: ReadonlySet<string>;
  depth?: number;
}) {
  const isActive = depth === 0 || active.has(node.path);
  const isLeaf = node.children.length === 0;
  const cls = [
    'state',
    `state-${node.type}`,
    isActive && depth > 0 ? 'active' : '',
    isActive && isLeaf ? 'current' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div class={cls} data-path={node.path} data-active={isActive && depth > 0 ? 'true' : undefined}>
      {depth > 0 && (
        <div class="state-name">
          {node.key}
          {node.invokes.length > 0 && <span class="state-invoke"> ⟳ {node.invokes.join(', ')}</span>}
        </div>
      )}
      {node.transitions.length > 0 && (
        <ul class="transitions">
          {node.transitions.map((t, i) => (
            <li key={i}>{describe(t)}</li>
          ))}
        </ul>
      )}
      {!isLeaf && (
        <div class={`children${node.type === 'parallel' ? ' parallel' : ''}`}>
          {node.children.map((child) => (
            <div class="child" key={child.key}>
              {node.initial === child.key && (
                <span class="initial" title="initial state" aria-label="initial">
                  ●
                </span>
              )}
              <Statechart node={child} active={active} depth={depth + 1} />
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

function describe(t: ChartTransition): string {
  const target = t.targets.length > 0 ? t.targets.map((p) => p.split('.').pop()).join(', ') : '(stays)';
  return `${t.label} → ${target}${t.guard ? ` [${t.guard}]` : ''}`;
}
