import type { ControlOperation } from '../../../lambda/control/operation';
import type { RequestField } from '../../../lambda/control/request-fields';
import { UsageError } from '../../harness/cli';
import type { ControlCall } from './client';

/**
 * Command lines read from the control room's operation table
 * (lambda/control/operations.ts): `<group> <action>` names the operation
 * `group.action`, each of its request fields is a flag (fields.ts says the
 * flag's name and placeholder, the schema its kind), and the usage lines
 * are written from the same fields. The operation then checks the request
 * as the function does, so a command line and a request are refused in the
 * same words.
 */

/** One operation as a command: its words and its fields. */
export interface TableCommand {
  /** `contacts list`. */
  words: string;
  /** `contacts.list`. */
  operation: string;
  fields: readonly RequestField[];
}

/** Another flag that gives a field's value (`--email` for contactId): its value from the flag's and the request so far. */
export interface Alternative {
  flag: string;
  placeholder: string;
  value: (raw: string, request: Record<string, unknown>) => unknown;
}

/** What a command adds to or takes from its operation's fields. */
export interface CommandShape {
  /** Fields the command sets itself while it runs (an export's cursor): never flags. */
  drives?: readonly string[];
  /** Flags of the command's own, beside the fields' (`all`). */
  flags?: readonly string[];
  /** Other flags for a field, by its key. */
  alternatives?: Readonly<Record<string, Alternative>>;
  /** Fields of which exactly one must be given (a person by `email` or by `contactId`): shown as `(--a <x> | --b <y>)`. */
  oneOf?: readonly string[];
  /** The refusal of a command line without a required field (`flag`: its usage, `--issue <iss_id>`); by default "<command> needs <flag>". */
  missing?: (words: string, flag: string) => string;
}

/** The operations of these groups, as commands, in the table's order. */
export function commandsOf(operations: ReadonlyMap<string, ControlOperation>, groups: readonly string[]): TableCommand[] {
  return [...operations]
    .filter(([name]) => groups.includes(name.slice(0, name.indexOf('.'))))
    .map(([name, operation]) => ({ words: name.replace('.', ' '), operation: name, fields: operation.fields }));
}

/** The fields a command takes as flags. */
const flagFields = (command: TableCommand, shape: CommandShape) => command.fields.filter((field) => !shape.drives?.includes(field.key));

/**
 * The parseArgs options of every field flag of these commands: a list's
 * flag may be repeated (and where one command's list is another's single
 * value, as alerts' --type, the single one refuses a repeat: fieldValue).
 */
export function fieldOptions(commands: readonly TableCommand[]): Record<string, { type: 'string' | 'boolean'; multiple?: true }> {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: true }> = {};
  for (const field of commands.flatMap((command) => command.fields)) {
    if (field.kind === 'switch') {
      options[field.flag] = { type: 'boolean' };
      continue;
    }
    const multiple = field.kind === 'list' || options[field.flag]?.multiple === true;
    options[field.flag] = multiple ? { type: 'string', multiple: true } : { type: 'string' };
  }
  return options;
}

/** "red or blue", "one of matt, satin, gloss". */
const oneOf = (choices: readonly string[]) => (choices.length === 2 ? choices.join(' or ') : `one of ${choices.join(', ')}`);

/** A flag's text as its field takes it: a whole number, yes or no, a list, or one of its choices (a switch: given, so yes). */
function fieldValue(field: RequestField, raw: string | string[] | boolean): unknown {
  if (typeof raw === 'boolean') return raw;
  if (Array.isArray(raw) && field.kind !== 'list' && raw.length > 1) throw new UsageError(`--${field.flag} is given twice: give it once`);
  const one = Array.isArray(raw) ? (raw[0] as string) : raw;
  switch (field.kind) {
    case 'list': {
      const items = Array.isArray(raw) ? raw : [raw];
      const wrong = field.choices && items.find((item) => !field.choices?.includes(item));
      if (wrong !== undefined && field.choices) throw new UsageError(`--${field.flag} must be ${oneOf(field.choices)}, got "${wrong}"`);
      return items;
    }
    case 'number': {
      const number = Number(one);
      if (one.trim() === '' || !Number.isInteger(number)) throw new UsageError(`--${field.flag} must be a whole number, got "${one}"`);
      return number;
    }
    case 'fraction': {
      const number = Number(one);
      if (one.trim() === '' || !Number.isFinite(number)) throw new UsageError(`--${field.flag} must be a number such as 0.99, got "${one}"`);
      return number;
    }
    case 'yes-no':
      if (one !== 'yes' && one !== 'no') throw new UsageError(`--${field.flag} must be yes or no, got "${one}"`);
      return one === 'yes';
    case 'switch':
      return true;
    case 'text':
      if (field.choices && !field.choices.includes(one)) throw new UsageError(`--${field.flag} must be ${oneOf(field.choices)}, got "${one}"`);
      return one;
  }
}

/**
 * The request a command line asks for, before the operation checks it:
 * a flag the command does not take, a required field without its flag (or
 * an alternative), and a value of the wrong kind are usage errors. `always`
 * are the flags every command takes (where it runs).
 */
export function requestFromFlags(command: TableCommand, shape: CommandShape, values: Record<string, unknown>, always: readonly string[]): ControlCall {
  const fields = flagFields(command, shape);
  const alternatives = shape.alternatives ?? {};
  const takes = new Set([
    ...fields.flatMap((field) => [field.flag, ...(alternatives[field.key] ? [alternatives[field.key]?.flag as string] : [])]),
    ...(shape.flags ?? []),
    ...always,
  ]);
  for (const name of Object.keys(values)) if (values[name] !== undefined && !takes.has(name)) throw new UsageError(`${command.words} does not take --${name}`);
  const request: Record<string, unknown> = {};
  for (const field of fields) {
    const raw = values[field.flag] as string | string[] | boolean | undefined;
    const alternative = alternatives[field.key];
    const other = alternative ? (values[alternative.flag] as string | undefined) : undefined;
    if (raw !== undefined && other !== undefined) throw new UsageError(`give --${field.flag} or --${alternative?.flag}, not both`);
    if (raw !== undefined) request[field.key] = fieldValue(field, raw);
    else if (alternative && other !== undefined) request[field.key] = alternative.value(other, request);
    else if (field.required) throw new UsageError((shape.missing ?? ((words, flag) => `${words} needs ${flag}`))(command.words, flagUsage(field, alternative)));
  }
  return { operation: command.operation, ...request } as ControlCall;
}

/** An operation's message in the command's words: a field's key that starts it becomes its flag ("issueId must be…" → "--issue must be…"). */
export function inFlagWords(command: TableCommand): (message: string) => string {
  return (message) => {
    const field = command.fields.find((candidate) => message.startsWith(`${candidate.key} `));
    return field ? `--${field.flag}${message.slice(field.key.length)}` : message;
  };
}

/** `--contact <ct_id>`, `--enriched yes|no`, `--contact <ct_id>|--email <address>`. */
function flagUsage(field: RequestField, alternative?: Alternative): string {
  const own =
    field.kind === 'switch'
      ? `--${field.flag}`
      : field.kind === 'yes-no'
        ? `--${field.flag} yes|no`
        : field.choices && field.kind !== 'list'
          ? `--${field.flag} ${field.placeholder}`
          : `--${field.flag} <${field.placeholder}>`;
  return alternative ? `${own}|--${alternative.flag} <${alternative.placeholder}>` : own;
}

/** The command's usage line, from its fields: required flags bare, the others in brackets, lists with their repeat. */
export function usageLine(command: TableCommand, shape: CommandShape): string {
  const fields = flagFields(command, shape);
  const oneOf = fields.filter((field) => shape.oneOf?.includes(field.key));
  const parts = fields.flatMap((field) => {
    const flag = flagUsage(field, shape.alternatives?.[field.key]);
    if (oneOf.includes(field)) return field === oneOf[0] ? [`(${oneOf.map((one) => flagUsage(one, shape.alternatives?.[one.key])).join(' | ')})`] : [];
    if (field.kind === 'list') return field.required ? `${flag} [${flag} …]` : `[${flag} …]`;
    return field.required ? flag : `[${flag}]`;
  });
  return [command.words, ...parts, ...(shape.flags ?? []).map((flag) => `[--${flag}]`)].join(' ');
}
