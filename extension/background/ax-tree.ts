// The shapes of CDP's Accessibility domain that the page model reads (getFullAXTree,
// getPartialAXTree), and the reads of one node: its role, name, value and properties.
// No IO: ax-model.ts turns trees into the page model, ax-snapshot.ts fetches them.

export interface AxValue {
  type: string;
  value?: unknown;
  relatedNodes?: Array<{ backendDOMNodeId?: number }>;
}

export interface AxNameSource {
  type: string;
  attribute?: string;
  value?: AxValue;
  attributeValue?: AxValue;
  superseded?: boolean;
}

export interface AxNode {
  nodeId: string;
  ignored: boolean;
  role?: AxValue;
  name?: AxValue & { sources?: AxNameSource[] };
  value?: AxValue;
  properties?: Array<{ name: string; value: AxValue }>;
  parentId?: string;
  childIds?: string[];
  backendDOMNodeId?: number;
  frameId?: string;
}

export const roleOfNode = (node: AxNode): string => String(node.role?.value ?? '');

export function textOfValue(value: AxValue | undefined): string {
  const raw = value?.value;
  if (raw === undefined || raw === null) return '';
  return String(raw).replace(/\s+/g, ' ').trim();
}

/** The node's properties by name (focusable, checked, expanded, level, url, modal...); relations as their related nodes. */
export function propertiesOf(node: AxNode): Map<string, unknown> {
  const map = new Map<string, unknown>();
  for (const property of node.properties ?? [])
    map.set(property.name, property.value.relatedNodes ?? property.value.value);
  return map;
}

/** The placeholder attribute the name computation saw, used as the name or not. */
export function placeholderOf(node: AxNode): string | undefined {
  for (const source of node.name?.sources ?? []) {
    if (source.type === 'placeholder' || source.attribute === 'placeholder') {
      const text = textOfValue(source.attributeValue ?? source.value);
      if (text) return text;
    }
  }
  return undefined;
}
