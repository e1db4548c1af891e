/**
 * DynamoDB's JSON wire forms the proxy reads (AWS JSON 1.0: every value tagged
 * with its type), kept as they arrive: the proxy never unmarshals an item, so
 * it sizes and compares exactly what DynamoDB Local stores.
 */
export type AttributeValue =
  | { S: string }
  | { N: string }
  | { B: string }
  | { BOOL: boolean }
  | { NULL: boolean }
  | { SS: string[] }
  | { NS: string[] }
  | { BS: string[] }
  | { L: AttributeValue[] }
  | { M: Record<string, AttributeValue> };

export type Item = Record<string, AttributeValue>;

/** A JSON object as parsed from a request or answer body. */
export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An item as found in a request or answer: a JSON object of attribute values, or undefined. */
export const itemOf = (value: unknown): Item | undefined => (isObject(value) ? (value as Item) : undefined);

/**
 * A key or index-key attribute as text, for the stats and the bucket names:
 * scalar keys only (S, N or B, as DynamoDB requires of key attributes).
 */
export function keyText(value: AttributeValue | undefined): string | undefined {
  if (value === undefined) return undefined;
  if ('S' in value) return value.S;
  if ('N' in value) return value.N;
  if ('B' in value) return value.B;
  return undefined;
}

/** Two attribute values are the same when their JSON forms are (sets compared as sorted lists). */
export function sameValue(a: AttributeValue | undefined, b: AttributeValue | undefined): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => {
        const inner = value[key];
        // Sets have no order: compare them sorted.
        const sorted = (key === 'SS' || key === 'NS' || key === 'BS') && Array.isArray(inner) ? [...inner].sort() : inner;
        return `${JSON.stringify(key)}:${canonical(sorted)}`;
      })
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
