import type {
  Attributes,
  BulkCreateOptions,
  CountOptions,
  CreationAttributes,
  DestroyOptions,
  FindOptions,
  Model,
  ModelStatic,
  Transaction,
  UpdateOptions,
  WhereOptions,
} from 'sequelize';

/** A model whose rows belong to one guild. */
export type GuildModel = Model & { guildId: string };

/**
 * One guild's rows of a model. Every query it runs carries `guildId`, so a repository built on it
 * cannot read or change another guild's data by forgetting a where clause.
 */
export class GuildScope<M extends GuildModel> {
  constructor(
    readonly model: ModelStatic<M>,
    readonly guildId: string,
  ) {}

  private where(where?: WhereOptions<Attributes<M>>): WhereOptions<Attributes<M>> {
    return { ...(where as object | undefined), guildId: this.guildId } as unknown as WhereOptions<Attributes<M>>;
  }

  /** Rows of this guild matching `options.where`. */
  findAll(options: FindOptions<Attributes<M>> = {}): Promise<M[]> {
    return this.model.findAll({ ...options, where: this.where(options.where) });
  }

  /** The first row of this guild matching `options.where`. */
  findOne(options: FindOptions<Attributes<M>> = {}): Promise<M | null> {
    return this.model.findOne({ ...options, where: this.where(options.where) });
  }

  /** How many rows of this guild match. */
  count(options: Omit<CountOptions<Attributes<M>>, 'group'> = {}): Promise<number> {
    return this.model.count({ ...options, where: this.where(options.where) });
  }

  /** This guild's row with this primary key, or null (another guild's row is not found). */
  findByPk(id: number | string, options: Omit<FindOptions<Attributes<M>>, 'where'> = {}): Promise<M | null> {
    return this.findOne({ ...options, where: { [this.model.primaryKeyAttribute]: id } as WhereOptions<Attributes<M>> });
  }

  /** How many rows of this guild match, by the values of one column. */
  async countBy<K extends keyof Attributes<M> & string>(
    column: K,
    options: Omit<CountOptions<Attributes<M>>, 'group'> = {},
  ): Promise<Map<Attributes<M>[K], number>> {
    const rows = (await this.model.count({ ...options, where: this.where(options.where), group: [column] })) as unknown as ({ count: number | string } & Record<
      K,
      Attributes<M>[K]
    >)[];
    return new Map(rows.map((row) => [row[column], Number(row.count)]));
  }

  /** Creates rows in this guild. */
  bulkCreate(values: readonly Omit<CreationAttributes<M>, 'guildId'>[], options: BulkCreateOptions<Attributes<M>> = {}): Promise<M[]> {
    return this.model.bulkCreate(
      values.map((row) => ({ ...row, guildId: this.guildId }) as unknown as CreationAttributes<M>),
      options,
    );
  }

  /** Creates a row in this guild. */
  create(values: Omit<CreationAttributes<M>, 'guildId'>, options: { transaction?: Transaction } = {}): Promise<M> {
    return this.model.create({ ...values, guildId: this.guildId } as unknown as CreationAttributes<M>, options);
  }

  /** Updates this guild's rows matching `options.where`; returns how many changed. */
  async update(
    values: Partial<Attributes<M>>,
    options: Omit<UpdateOptions<Attributes<M>>, 'returning'> & { where?: WhereOptions<Attributes<M>> },
  ): Promise<number> {
    const [count] = await this.model.update(values, { ...options, where: this.where(options.where) });
    return count;
  }

  /** Deletes this guild's rows matching `options.where`; returns how many. */
  destroy(options: DestroyOptions<Attributes<M>> = {}): Promise<number> {
    return this.model.destroy({ ...options, where: this.where(options.where) });
  }
}
