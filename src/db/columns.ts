// The Sequelize side of src/db/tables.ts: a table's columns as a model's attributes.
import { DataTypes, type ModelAttributeColumnOptions } from 'sequelize';
import type { ColumnSpec, TableSpec } from './tables';

/** One column as a model attribute (a fresh object: Sequelize writes into attribute definitions). */
function attributeOf(spec: ColumnSpec): ModelAttributeColumnOptions {
  if (spec.kind === 'id') return { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true };
  const type =
    spec.kind === 'snowflake'
      ? DataTypes.STRING(21)
      : spec.kind === 'string'
        ? DataTypes.STRING(spec.size ?? 255)
        : spec.kind === 'text'
          ? DataTypes.TEXT
          : spec.kind === 'integer'
            ? DataTypes.INTEGER
            : DataTypes.DATE;
  const attribute: ModelAttributeColumnOptions = { type, allowNull: spec.nullable === true };
  if (spec.key) attribute.primaryKey = true;
  if (spec.default !== undefined) attribute.defaultValue = spec.default === 'now' ? DataTypes.NOW : spec.default;
  return attribute;
}

/** A table's columns as the attributes of its model. */
export function attributesOf<C extends string>(table: TableSpec<C>): Record<C, ModelAttributeColumnOptions> {
  const attributes = {} as Record<C, ModelAttributeColumnOptions>;
  for (const [name, spec] of Object.entries(table.columns) as [C, ColumnSpec][]) attributes[name] = attributeOf(spec);
  return attributes;
}
