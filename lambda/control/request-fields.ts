import type * as z from 'zod/mini';
import { FIELD_META, type FieldMeta } from './fields';

/** How a field's value is written outside JSON: as text, a whole number, a decimal (a share), yes or no, a switch (given: yes), or one value per repeat of its flag. */
export type FieldKind = 'text' | 'number' | 'fraction' | 'yes-no' | 'switch' | 'list';

/**
 * One field of an operation's request, as its schema and its metadata
 * (fields.ts, FieldMeta) describe it: what the audit line and the `control`
 * command know of it, read from the table rather than written a second time.
 */
export interface RequestField {
  /** Its key in the request: `factoryId`. */
  key: string;
  /** Its command-line flag, without dashes: `factory`. */
  flag: string;
  /** What the usage shows as its value (`fac_id`); none for yes-no and a switch. */
  placeholder: string;
  kind: FieldKind;
  /** The request is refused without it (the operation may still fill in a default for the others). */
  required: boolean;
  /** The audit line names its value. */
  audited: boolean;
  /** The values it takes (a list: each of its items), when the schema lists them. */
  choices?: readonly string[];
}

type Schema = z.core.$ZodType;

const kebab = (key: string) => key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** The schema under `optional`, and whether it was wrapped. */
function unwrapped(schema: Schema): { inner: Schema; required: boolean } {
  const { def } = schema._zod;
  if (def.type === 'optional') return { inner: unwrapped((def as z.core.$ZodOptionalDef).innerType).inner, required: false };
  return { inner: schema, required: true };
}

/** The kind of a field and the values it takes, from its schema (a pipe by what goes in). */
function kindOf(schema: Schema): { kind: FieldKind; choices?: readonly string[] } {
  const { def } = schema._zod;
  switch (def.type) {
    case 'number':
      return { kind: 'number' };
    case 'boolean':
      return { kind: 'yes-no' };
    case 'array':
      return { kind: 'list', choices: kindOf((def as z.core.$ZodArrayDef).element).choices };
    case 'enum':
      return { kind: 'text', choices: Object.values((def as z.core.$ZodEnumDef).entries).map(String) };
    case 'pipe':
      return kindOf((def as z.core.$ZodPipeDef).in);
    case 'optional':
      return kindOf((def as z.core.$ZodOptionalDef).innerType);
    default:
      return { kind: 'text' };
  }
}

/** Each field of a request schema's shape, in its order. */
export function requestFields(shape: Record<string, Schema>): RequestField[] {
  return Object.entries(shape).map(([key, schema]) => {
    const { inner, required } = unwrapped(schema);
    const meta: FieldMeta = FIELD_META.get(inner) ?? FIELD_META.get(schema) ?? {};
    const read = kindOf(inner);
    const { choices } = read;
    const kind: FieldKind = read.kind === 'yes-no' && meta.switch ? 'switch' : read.kind === 'number' && meta.fraction ? 'fraction' : read.kind;
    // A list's flag is given once per item: named in the singular (--field name --field title).
    const flag = meta.flag ?? (kind === 'list' ? kebab(key).replace(/s$/, '') : kebab(key));
    const placeholder =
      meta.placeholder ?? (choices && kind !== 'list' ? choices.join('|') : kind === 'number' ? 'N' : kind === 'yes-no' || kind === 'switch' ? '' : flag);
    return { key, flag, placeholder, kind, required, audited: meta.audited === true, ...(choices ? { choices } : {}) };
  });
}
