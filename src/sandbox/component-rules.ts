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

/** A custom_id found in a message's components, with its path in the body. */
interface FoundId {
  customId: string;
  path: (string | number)[];
}

/** The custom_ids of one component and of those it holds: children, an accessory, a labelled component. */
function idsOfComponent(component: Record<string, unknown>, at: (string | number)[]): FoundId[] {
  const own = typeof component.custom_id === 'string' ? [{ customId: component.custom_id, path: [...at, 'custom_id'] }] : [];
  const single = (key: string) => {
    const held = record(component[key]);
    return held ? idsOfComponent(held, [...at, key]) : [];
  };
  return [...own, ...customIds(component.components, [...at, 'components']), ...single('accessory'), ...single('component')];
}

/** Every custom_id of a message's components with its path, in order (action rows' children, and layout components' nested ones). */
export function customIds(components: unknown, path: (string | number)[] = []): FoundId[] {
  if (!Array.isArray(components)) return [];
  return components.flatMap((item, index) => {
    const component = record(item);
    return component ? idsOfComponent(component, [...path, index]) : [];
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
