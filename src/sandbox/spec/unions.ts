// Discord's unions (command options, message components) are told apart by their `type`. ajv
// reports every branch's failure of a oneOf, so an option of type 3 with 26 choices also fails the
// integer branch ("value did not match validation regex") and every other branch's `type`, and the
// real problem drowns. Discord validates the branch the type names; so is it done here.
import type Ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';

/** A JSON object as a record, or null for anything else. */
function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** The spec's component schemas, by name. */
type Schemas = Record<string, unknown>;

/** Whether a component schema of the spec fixes its `type` to `value` (by enum or const). */
function fixesType(schemas: Schemas, ref: string, value: unknown): boolean {
  const name = ref.split('/').at(-1) ?? '';
  const type = record(record(record(schemas[name])?.properties)?.type);
  if (!type) return false;
  return Array.isArray(type.enum) ? type.enum.includes(value) : type.const === value;
}

/** The one branch of a failed union that the data's `type` picks, as a compiled validator; null when the union is not one or none or several fit. */
function pickedBranch(ajv: Ajv2020, schemas: Schemas, union: ErrorObject): ValidateFunction | null {
  if (union.keyword !== 'oneOf' && union.keyword !== 'anyOf') return null;
  const data = record(union.data);
  if (!data || !('type' in data) || !Array.isArray(union.schema)) return null;
  const refs = (union.schema as unknown[]).map((branch) => record(branch)?.$ref);
  if (!refs.every((ref): ref is string => typeof ref === 'string' && ref.startsWith('#/components/schemas/'))) return null;
  const picked = refs.filter((ref) => fixesType(schemas, ref, data.type));
  const [ref] = picked;
  return picked.length === 1 && ref ? (ajv.getSchema(`openapi${ref}`) ?? null) : null;
}

/**
 * The errors with every failed discriminated union of the spec (`schemas`, its component schemas) (outermost first) replaced by the errors of the
 * branch its data's `type` picks, at the union's path. A union whose picked branch passes (a oneOf
 * that more than one branch took) keeps its own errors.
 */
export function narrowUnions(ajv: Ajv2020, schemas: Schemas, errors: ErrorObject[], depth = 0): ErrorObject[] {
  if (depth > 16) return errors;
  const unions = errors.filter((error) => error.keyword === 'oneOf' || error.keyword === 'anyOf').sort((a, b) => a.instancePath.length - b.instancePath.length);
  for (const union of unions) {
    const validate = pickedBranch(ajv, schemas, union);
    if (!validate || validate(union.data)) continue;
    const own = (validate.errors ?? []).map((error) => ({ ...error, instancePath: `${union.instancePath}${error.instancePath}` }));
    const at = union.instancePath;
    const outside = errors.filter((error) => error.instancePath !== at && !error.instancePath.startsWith(`${at}/`));
    return narrowUnions(ajv, schemas, [...outside, ...own], depth + 1);
  }
  return errors;
}
