/** An attribute, or the way into a map: `['cleared', 'phone', 'at']` is `cleared.phone.at`. */
export type AttributePath = string | readonly string[];

/** A value or an attribute given its placeholder: passed again, it is the same placeholder. */
export class Operand {
  constructor(readonly text: string) {}
}

/** One condition made by an Expression; conditions given together must all hold. */
export class Condition {
  constructor(readonly text: string) {}
}

export type Comparator = '=' | '<>' | '<' | '<=' | '>' | '>=';

/** The placeholder maps of a command (absent when empty: DynamoDB refuses an empty map). */
export interface Placeholders {
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

export type UpdateExpressions = Placeholders & { UpdateExpression: string; ConditionExpression?: string };
export type ConditionExpressions = Placeholders & { ConditionExpression: string };
export type QueryExpressions = Placeholders & { KeyConditionExpression: string; FilterExpression?: string; ProjectionExpression?: string };

/** A name that can be its own placeholder (`#email`); others get `#_0`, `#_1`…, which no such name can take. */
const PLAIN_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/**
 * The expressions of one DynamoDB command, and their placeholders: every
 * attribute is named through `#…` (reserved words and odd names alike),
 * every value through a fresh `:v…`, so no call site writes a name or value
 * map by hand. Updates (SET, REMOVE, ADD), the write's condition, a Query's
 * key condition, filter and projection are collected here and handed to the
 * command with forUpdate(), forCondition() or forQuery().
 */
export class Expression {
  private readonly names = new Map<string, string>();
  private readonly values: Record<string, unknown> = {};
  private valueCount = 0;
  private readonly sets: string[] = [];
  private readonly removes: string[] = [];
  private readonly adds: string[] = [];
  private readonly conditions: string[] = [];
  private readonly keyConditions: string[] = [];
  private readonly filters: string[] = [];
  private readonly projection: string[] = [];

  /** The attribute (or map path) as an operand: `#a.#b`. */
  attribute(path: AttributePath): Operand {
    return new Operand(typeof path === 'string' ? this.name(path) : path.map((step) => this.name(step)).join('.'));
  }

  /** The value as an operand, under a placeholder of its own. */
  value(value: unknown): Operand {
    const placeholder = `:v${this.valueCount++}`;
    this.values[placeholder] = value;
    return new Operand(placeholder);
  }

  /** SET path = value. */
  set(path: AttributePath, value: unknown): this {
    this.sets.push(`${this.attribute(path).text} = ${this.operand(value)}`);
    return this;
  }

  /** SET path = value only where it has none yet: a set-once field. */
  setOnce(path: AttributePath, value: unknown): this {
    const attribute = this.attribute(path).text;
    this.sets.push(`${attribute} = if_not_exists(${attribute}, ${this.operand(value)})`);
    return this;
  }

  /** SET path = left + right (a value, or an attribute given as `attribute(…)`): DynamoDB adds, conditions cannot. */
  setSum(path: AttributePath, left: unknown, right: unknown): this {
    this.sets.push(`${this.attribute(path).text} = ${this.operand(left)} + ${this.operand(right)}`);
    return this;
  }

  /** REMOVE path. */
  remove(path: AttributePath): this {
    this.removes.push(this.attribute(path).text);
    return this;
  }

  /** ADD path value: a number added to (or a set joined with) what is stored, created when absent. */
  add(path: AttributePath, value: unknown): this {
    this.adds.push(`${this.attribute(path).text} ${this.operand(value)}`);
    return this;
  }

  exists(path: AttributePath): Condition {
    return new Condition(`attribute_exists(${this.attribute(path).text})`);
  }

  notExists(path: AttributePath): Condition {
    return new Condition(`attribute_not_exists(${this.attribute(path).text})`);
  }

  /** path <comparator> value (a value, or an operand made before). */
  is(path: AttributePath, comparator: Comparator, value: unknown): Condition {
    return new Condition(`${this.attribute(path).text} ${comparator} ${this.operand(value)}`);
  }

  beginsWith(path: AttributePath, prefix: unknown): Condition {
    return new Condition(`begins_with(${this.attribute(path).text}, ${this.operand(prefix)})`);
  }

  /** One of them holds. Parenthesized once: DynamoDB refuses redundant parentheses, and AND binds tighter than OR. */
  or(...conditions: Condition[]): Condition {
    return new Condition(`(${conditions.map((condition) => condition.text).join(' OR ')})`);
  }

  /** The write happens only if these hold (with any given before). */
  when(...conditions: Condition[]): this {
    for (const condition of conditions) this.conditions.push(condition.text);
    return this;
  }

  /** A Query's key condition: the partition key's equality, then at most one sort-key condition. */
  key(...conditions: Condition[]): this {
    for (const condition of conditions) this.keyConditions.push(condition.text);
    return this;
  }

  /** A Query's filter: applied after the read, so what it drops is still read (and paid for). */
  filter(...conditions: Condition[]): this {
    for (const condition of conditions) this.filters.push(condition.text);
    return this;
  }

  /** Only these attributes come back. */
  project(...paths: AttributePath[]): this {
    for (const path of paths) this.projection.push(this.attribute(path).text);
    return this;
  }

  /** An UpdateItem's (or a transaction's Update's) expressions. */
  forUpdate(): UpdateExpressions {
    const clauses: string[] = [];
    if (this.sets.length > 0) clauses.push(`SET ${this.sets.join(', ')}`);
    if (this.removes.length > 0) clauses.push(`REMOVE ${this.removes.join(', ')}`);
    if (this.adds.length > 0) clauses.push(`ADD ${this.adds.join(', ')}`);
    if (clauses.length === 0) throw new Error('an update expression needs at least one clause');
    const expressions: UpdateExpressions = { UpdateExpression: clauses.join(' '), ...this.placeholders() };
    if (this.conditions.length > 0) expressions.ConditionExpression = this.conditions.join(' AND ');
    return expressions;
  }

  /** A conditional PutItem's expressions. */
  forCondition(): ConditionExpressions {
    if (this.conditions.length === 0) throw new Error('a condition expression needs a condition');
    return { ConditionExpression: this.conditions.join(' AND '), ...this.placeholders() };
  }

  /** A Query's expressions. */
  forQuery(): QueryExpressions {
    if (this.keyConditions.length === 0) throw new Error('a query needs a key condition');
    const expressions: QueryExpressions = { KeyConditionExpression: this.keyConditions.join(' AND '), ...this.placeholders() };
    if (this.filters.length > 0) expressions.FilterExpression = this.filters.join(' AND ');
    if (this.projection.length > 0) expressions.ProjectionExpression = this.projection.join(', ');
    return expressions;
  }

  private operand(value: unknown): string {
    return value instanceof Operand ? value.text : this.value(value).text;
  }

  private name(attribute: string): string {
    let placeholder = this.names.get(attribute);
    if (placeholder === undefined) {
      placeholder = PLAIN_NAME.test(attribute) ? `#${attribute}` : `#_${this.names.size}`;
      this.names.set(attribute, placeholder);
    }
    return placeholder;
  }

  private placeholders(): Placeholders {
    const placeholders: Placeholders = {};
    if (this.names.size > 0) {
      const names: Record<string, string> = {};
      for (const [attribute, placeholder] of this.names) names[placeholder] = attribute;
      placeholders.ExpressionAttributeNames = names;
    }
    if (this.valueCount > 0) placeholders.ExpressionAttributeValues = this.values;
    return placeholders;
  }
}
