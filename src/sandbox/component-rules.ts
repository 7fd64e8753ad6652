// What Discord refuses in a message's components beyond their shapes (which the spec checks): two
// interactive components with one custom_id in the same message. Discord answers 50035
// COMPONENT_CUSTOM_ID_DUPLICATED and sends nothing, disabled buttons included, so a pager whose
// "Previous" and "Next" collapse onto one page breaks the whole reply in production.
import type { z } from 'zod';
import type { FieldProblem } from './spec';

/** Discord's problem for the second component carrying a custom_id already used in the message. */
export const DUPLICATE_CUSTOM_ID: FieldProblem = { code: 'COMPONENT_CUSTOM_ID_DUPLICATED', message: 'Component custom id cannot be duplicated' };

/** A JSON object as a record, or null for anything else. */
function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/**
 * Every custom_id of a message's components with its path, in order: action rows' children, and
 * the nested components, accessories and labelled components of layout components.
 */
export function customIds(components: unknown, path: (string | number)[] = []): { customId: string; path: (string | number)[] }[] {
  if (!Array.isArray(components)) return [];
  return components.flatMap((item, index) => {
    const component = record(item);
    if (!component) return [];
    const at = [...path, index];
    const own = typeof component.custom_id === 'string' ? [{ customId: component.custom_id, path: [...at, 'custom_id'] }] : [];
    const children = customIds(component.components, [...at, 'components']);
    const accessory = record(component.accessory) ? customIds([component.accessory], [...at, 'accessory']) : [];
    const labelled = record(component.component) ? customIds([component.component], [...at, 'component']) : [];
    // A single nested component's path names its field, not a list index.
    const unlist = (found: { customId: string; path: (string | number)[] }[]) =>
      found.map((entry) => ({ ...entry, path: entry.path.filter((_, i) => i !== at.length + 1) }));
    return [...own, ...children, ...unlist(accessory), ...unlist(labelled)];
  });
}

/** A zod refinement of a message's `components`: the second use of a custom_id is refused, as Discord refuses it. */
export function uniqueCustomIds(components: unknown, ctx: z.core.$RefinementCtx): void {
  const seen = new Set<string>();
  for (const { customId, path } of customIds(components)) {
    if (seen.has(customId)) ctx.addIssue({ code: 'custom', path, message: DUPLICATE_CUSTOM_ID.message, params: { discord: DUPLICATE_CUSTOM_ID } });
    seen.add(customId);
  }
}
