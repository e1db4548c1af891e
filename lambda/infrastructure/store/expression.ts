/** An attribute, or the way into a map: `['cleared', 'phone', 'at']` is `cleared.phone.at`. */
export type AttributePath = string | readonly string[];

/** A value or an attribute given its placeholder: passed again, it is the same placeholder. */
export class Operand {
  constructor(readonly text: string) {}
}

/** One condition made by an Expression; conditions given together must all hold. (A string at run time: the bundles stay small.) */
export type Condition = string & { readonly __condition: true };

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

/** Where a clause goes: an update's SET, REMOVE or ADD, the write's condition, a Query's key condition, filter or projection. */
type Part = 'SET' | 'REMOVE' | 'ADD' | 'when' | 'key' | 'filter' | 'project';

const condition = (text: string) => text as Condition;

/**
 * The expressions of one DynamoDB command, and their placeholders: every
 * attribute is named through `#…` (reserved words and odd names alike),
 * every value through a fresh `:v…`, so no call site writes a name or value
 * map by hand. An update's SET, REMOVE and ADD clauses and the write's
 * condition are collected here and handed to the command with forUpdate()
 * (UpdateItem, a transaction's Update) or forCondition() (PutItem);
 * QueryExpression adds a Query's key condition, filter and projection.
 */
export class Expression {
  private readonly names = new Map<string, string>();
  private readonly values: Record<string, unknown> = {};
  private valueCount = 0;
  private readonly parts: Partial<Record<Part, string[]>> = {};

  /** The attribute (or map path) as an operand: `#a.#b`. */
  attribute(path: AttributePath): Operand {
    return new Operand(this.path(path));
  }

  /** The value as an operand, under a placeholder of its own. */
  value(value: unknown): Operand {
    const placeholder = `:v${this.valueCount++}`;
    this.values[placeholder] = value;
    return new Operand(placeholder);
  }

  /** SET path = value (a value, or an operand made before). */
  set(path: AttributePath, value: unknown): this {
    return this.push('SET', `${this.path(path)} = ${this.operand(value)}`);
  }

  /** SET path = value only where it has none yet: a set-once field. */
  setOnce(path: AttributePath, value: unknown): this {
    const attribute = this.path(path);
    return this.push('SET', `${attribute} = if_not_exists(${attribute}, ${this.operand(value)})`);
  }

  /** SET path = left + right (values, or attributes given as `attribute(…)`): DynamoDB adds, conditions cannot. */
  setSum(path: AttributePath, left: unknown, right: unknown): this {
    return this.push('SET', `${this.path(path)} = ${this.operand(left)} + ${this.operand(right)}`);
  }

  /** REMOVE path. */
  remove(path: AttributePath): this {
    return this.push('REMOVE', this.path(path));
  }

  /** ADD path value: a number added to (or a set joined with) what is stored, created when absent. */
  add(path: AttributePath, value: unknown): this {
    return this.push('ADD', `${this.path(path)} ${this.operand(value)}`);
  }

  exists(path: AttributePath): Condition {
    return condition(`attribute_exists(${this.path(path)})`);
  }

  notExists(path: AttributePath): Condition {
    return condition(`attribute_not_exists(${this.path(path)})`);
  }

  /** path <comparator> value (a value, or an operand made before). */
  is(path: AttributePath, comparator: Comparator, value: unknown): Condition {
    return condition(`${this.path(path)} ${comparator} ${this.operand(value)}`);
  }

  /** size(path) <comparator> value: the members of a set, the characters of a string. */
  sizeIs(path: AttributePath, comparator: Comparator, value: unknown): Condition {
    return condition(`size(${this.path(path)}) ${comparator} ${this.operand(value)}`);
  }

  beginsWith(path: AttributePath, prefix: unknown): Condition {
    return condition(`begins_with(${this.path(path)}, ${this.operand(prefix)})`);
  }

  /** One of them holds. Parenthesized once: DynamoDB refuses redundant parentheses, and AND binds tighter than OR. */
  or(...conditions: Condition[]): Condition {
    return condition(`(${conditions.join(' OR ')})`);
  }

  /** All of them hold, as one condition (to sit inside an `or`). */
  and(...conditions: Condition[]): Condition {
    return condition(`(${conditions.join(' AND ')})`);
  }

  /** The write happens only if these hold (with any given before). */
  when(...conditions: Condition[]): this {
    return this.push('when', ...conditions);
  }

  /** An UpdateItem's (or a transaction's Update's) expressions. */
  forUpdate(): UpdateExpressions {
    const clauses = (['SET', 'REMOVE', 'ADD'] as const).flatMap((clause) => {
      const list = this.parts[clause];
      return list ? [`${clause} ${list.join(', ')}`] : [];
    });
    return { UpdateExpression: clauses.join(' '), ...this.optional('ConditionExpression', 'when', ' AND '), ...this.placeholders() };
  }

  /** A conditional PutItem's expressions. */
  forCondition(): ConditionExpressions {
    return { ConditionExpression: this.joined('when', ' AND '), ...this.placeholders() };
  }

  protected push(part: Part, ...texts: string[]): this {
    (this.parts[part] ??= []).push(...texts);
    return this;
  }

  protected joined(part: Part, separator: string): string {
    return (this.parts[part] ?? []).join(separator);
  }

  /** `{ [member]: the part's clauses joined }`, or nothing when the part has none. */
  protected optional<Member extends string>(member: Member, part: Part, separator: string): Partial<Record<Member, string>> {
    return this.parts[part] ? ({ [member]: this.joined(part, separator) } as Partial<Record<Member, string>>) : {};
  }

  private operand(value: unknown): string {
    return value instanceof Operand ? value.text : this.value(value).text;
  }

  protected path(path: AttributePath): string {
    return typeof path === 'string' ? this.name(path) : path.map((step) => this.name(step)).join('.');
  }

  private name(attribute: string): string {
    let placeholder = this.names.get(attribute);
    if (placeholder === undefined) {
      placeholder = PLAIN_NAME.test(attribute) ? `#${attribute}` : `#_${this.names.size}`;
      this.names.set(attribute, placeholder);
    }
    return placeholder;
  }

  protected placeholders(): Placeholders {
    const placeholders: Placeholders = {};
    if (this.names.size > 0)
      placeholders.ExpressionAttributeNames = Object.fromEntries([...this.names].map(([attribute, placeholder]) => [placeholder, attribute]));
    if (this.valueCount > 0) placeholders.ExpressionAttributeValues = this.values;
    return placeholders;
  }
}

/**
 * A Query's expressions: its key condition, filter and projection, with the
 * same placeholders. A class of its own so that a Lambda asset that never
 * queries (the two APIs') carries none of it.
 */
export class QueryExpression extends Expression {
  /** A Query's key condition: the partition key's equality, then at most one sort-key condition. */
  key(...conditions: Condition[]): this {
    return this.push('key', ...conditions);
  }

  /** A Query's filter: applied after the read, so what it drops is still read (and paid for). */
  filter(...conditions: Condition[]): this {
    return this.push('filter', ...conditions);
  }

  /** Only these attributes come back. */
  project(...paths: AttributePath[]): this {
    return this.push('project', ...paths.map((path) => this.path(path)));
  }

  /** A Query's expressions. */
  forQuery(): QueryExpressions {
    return {
      KeyConditionExpression: this.joined('key', ' AND '),
      ...this.optional('FilterExpression', 'filter', ' AND '),
      ...this.optional('ProjectionExpression', 'project', ', '),
      ...this.placeholders(),
    };
  }
}
