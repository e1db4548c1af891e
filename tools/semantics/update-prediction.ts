/**
 * The item an UpdateItem will leave, predicted before it runs, so that the
 * proxy knows which index partitions the write will charge before admitting
 * it (the write may move an index key: `SET feed = :f`). Evaluates SET (plain
 * values, `if_not_exists`, `+` and `-` on numbers), REMOVE, ADD and DELETE on
 * top-level attributes, and the legacy AttributeUpdates. What it cannot
 * evaluate (a nested path, `list_append`, an attribute another action of the
 * same request changes) it names in `unknown`: the proxy then charges the
 * index partition the prediction gives, and the actual cost is taken from
 * the item read after the write (write-path.ts).
 */
import { isObject, type AttributeValue, type Item, type Json } from './wire';

export interface UpdateSpec {
  UpdateExpression?: unknown;
  ExpressionAttributeNames?: unknown;
  ExpressionAttributeValues?: unknown;
  AttributeUpdates?: unknown;
}

export interface Prediction {
  after: Item;
  /** Top-level attributes the update changes in a way not evaluated here. */
  unknown: Set<string>;
}

/** Splits at `separator` outside parentheses and brackets. */
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '(' || char === '[') depth++;
    else if (char === ')' || char === ']') depth--;
    else if (depth === 0 && char === separator) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((part) => part.trim()).filter(Boolean);
}

/** The expression's clauses by action keyword: `SET a = :a REMOVE b` → [['SET', 'a = :a'], ['REMOVE', 'b']]. */
function sections(expression: string): [string, string][] {
  const found: [string, number][] = [];
  const keyword = /\b(SET|REMOVE|ADD|DELETE)\b/gi;
  for (let match = keyword.exec(expression); match; match = keyword.exec(expression)) {
    const before = expression.slice(0, match.index);
    const depth = (before.match(/[([]/g) ?? []).length - (before.match(/[)\]]/g) ?? []).length;
    // A keyword is an action only outside parentheses and where a clause can start (not `x = :SET`).
    if (depth === 0 && !/[#:\w]$/.test(before)) found.push([(match[1] as string).toUpperCase(), match.index]);
  }
  return found.map(([name, at], i) => [name, expression.slice(at + name.length, found[i + 1]?.[1] ?? expression.length).trim()]);
}

const numeric = (value: AttributeValue | undefined): number | undefined => (value && 'N' in value ? Number(value.N) : undefined);

class Evaluator {
  readonly unknown = new Set<string>();

  constructor(
    private readonly names: Json,
    private readonly values: Json,
    private readonly before: Item,
    readonly after: Item,
  ) {}

  /** A path's top-level attribute name, and whether the path is that attribute itself (not nested). */
  path(text: string): { name: string; topLevel: boolean } {
    const first = /^[^.[]+/.exec(text.trim())?.[0] ?? text.trim();
    const name = first.startsWith('#') ? String(this.names[first] ?? first) : first;
    return { name, topLevel: first === text.trim() };
  }

  /** A value expression, or undefined when not evaluated here. */
  value(text: string): AttributeValue | undefined {
    const trimmed = text.trim();
    const sum = splitTopLevel(trimmed, '+');
    const difference = sum.length === 1 ? splitTopLevel(trimmed, '-') : [];
    if (sum.length === 2 || difference.length === 2) {
      const [a, b] = (sum.length === 2 ? sum : difference).map((part) => numeric(this.operand(part)));
      if (a === undefined || b === undefined) return undefined;
      return { N: String(sum.length === 2 ? a + b : a - b) };
    }
    return this.operand(trimmed);
  }

  operand(text: string): AttributeValue | undefined {
    const trimmed = text.trim();
    if (trimmed.startsWith(':')) {
      const value = this.values[trimmed];
      return isObject(value) ? (value as AttributeValue) : undefined;
    }
    const call = /^if_not_exists\s*\((.*)\)$/i.exec(trimmed);
    if (call) {
      const [path, fallback] = splitTopLevel(call[1] as string, ',');
      const { name, topLevel } = this.path(path ?? '');
      if (!topLevel) return undefined;
      return this.before[name] ?? this.value(fallback ?? '');
    }
    if (/^list_append\s*\(/i.test(trimmed)) return undefined;
    const { name, topLevel } = this.path(trimmed);
    return topLevel ? this.before[name] : undefined;
  }

  set(clause: string): void {
    const [target, ...rest] = splitTopLevel(clause, '=');
    const { name, topLevel } = this.path(target ?? '');
    const value = topLevel ? this.value(rest.join('=')) : undefined;
    if (value === undefined) this.unknown.add(name);
    else this.after[name] = value;
  }

  remove(clause: string): void {
    const { name, topLevel } = this.path(clause);
    if (topLevel) delete this.after[name];
    else this.unknown.add(name);
  }

  /** ADD (numbers and sets) and DELETE (sets): `path :value`. */
  addOrDelete(clause: string, add: boolean): void {
    const [target, operand] = clause.split(/\s+/, 2);
    const { name, topLevel } = this.path(target ?? '');
    const change = operand === undefined ? undefined : this.operand(operand);
    const next = topLevel && change ? combine(this.after[name], change, add) : undefined;
    if (next === undefined) this.unknown.add(name);
    else if (next === null) delete this.after[name];
    else this.after[name] = next;
  }
}

/** ADD or DELETE of `change` on `current`; null when a set becomes empty (DynamoDB removes it). */
function combine(current: AttributeValue | undefined, change: AttributeValue, add: boolean): AttributeValue | null | undefined {
  if ('N' in change) {
    if (!add) return undefined;
    return { N: String((numeric(current) ?? 0) + Number(change.N)) };
  }
  for (const type of ['SS', 'NS', 'BS'] as const) {
    if (!(type in change)) continue;
    const have = current && type in current ? ((current as Record<string, string[]>)[type] ?? []) : [];
    const given = (change as Record<string, string[]>)[type] ?? [];
    const next = add ? [...new Set([...have, ...given])] : have.filter((element) => !given.includes(element));
    return next.length === 0 ? null : ({ [type]: next } as AttributeValue);
  }
  return undefined;
}

/** The item after the update, as far as it can be told before it runs. */
export function predictUpdate(update: UpdateSpec, key: Item, before: Item | undefined): Prediction {
  const after: Item = { ...(before ?? {}), ...key };
  const evaluator = new Evaluator(
    isObject(update.ExpressionAttributeNames) ? update.ExpressionAttributeNames : {},
    isObject(update.ExpressionAttributeValues) ? update.ExpressionAttributeValues : {},
    before ?? {},
    after,
  );
  if (typeof update.UpdateExpression === 'string') {
    for (const [action, body] of sections(update.UpdateExpression)) {
      for (const clause of splitTopLevel(body, ',')) {
        if (action === 'SET') evaluator.set(clause);
        else if (action === 'REMOVE') evaluator.remove(clause);
        else evaluator.addOrDelete(clause, action === 'ADD');
      }
    }
  } else if (isObject(update.AttributeUpdates)) {
    for (const [name, spec] of Object.entries(update.AttributeUpdates)) {
      const action = isObject(spec) && typeof spec.Action === 'string' ? spec.Action : 'PUT';
      const value = isObject(spec) && isObject(spec.Value) ? (spec.Value as AttributeValue) : undefined;
      if (action === 'DELETE' && !value) delete after[name];
      else if (action === 'PUT' && value) after[name] = value;
      else {
        const next = value ? combine(after[name], value, action === 'ADD') : undefined;
        if (next === undefined) evaluator.unknown.add(name);
        else if (next === null) delete after[name];
        else after[name] = next;
      }
    }
  }
  return { after: evaluator.after, unknown: evaluator.unknown };
}
