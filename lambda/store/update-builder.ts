/**
 * Collects the parts of an update expression with safe placeholder names:
 * the contact upsert and the issue writes use it (its own module, so the
 * ingest bundle does not carry the contact store).
 */
export class UpdateBuilder {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, unknown> = {};
  private readonly sets: string[] = [];
  private readonly adds: string[] = [];

  set(attribute: string, value: unknown): this {
    this.sets.push(`${this.name(attribute)} = ${this.value(attribute, value)}`);
    return this;
  }

  /** Sets the attribute only if it has no value yet (set-once fields). */
  setOnce(attribute: string, value: unknown): this {
    const name = this.name(attribute);
    this.sets.push(`${name} = if_not_exists(${name}, ${this.value(attribute, value)})`);
    return this;
  }

  /** Adds to a number (a missing attribute counts as 0): concurrent adds never lose one. */
  add(attribute: string, value: number): this {
    this.adds.push(`${this.name(attribute)} ${this.value(attribute, value)}`);
    return this;
  }

  expression(): string {
    const add = this.adds.length > 0 ? ` ADD ${this.adds.join(', ')}` : '';
    return `SET ${this.sets.join(', ')}${add}`;
  }

  /** The placeholder of an attribute name, for a condition beside the update. */
  name(attribute: string): string {
    const placeholder = `#${attribute}`;
    this.names[placeholder] = attribute;
    return placeholder;
  }

  /** A value placeholder named `:key`, for a condition beside the update (keys must not clash with set attributes). */
  value(attribute: string, value: unknown): string {
    const placeholder = `:${attribute}`;
    this.values[placeholder] = value;
    return placeholder;
  }
}
