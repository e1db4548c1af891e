import * as z from 'zod/mini';
import { between, contactId, described, factoryId, keyId } from '../../lambda/control/fields';
import { operation } from '../../lambda/control/operation';
import { CONTROL_OPERATIONS } from '../../lambda/control/operations';
import { spawn } from 'node:child_process';
import { closestOption, COMMON_OPTIONS, parseCommandLine, UsageError } from '../../local/harness/cli';
import { ROOT } from '../support/commands';
import { commandsOf, fieldOptions, requestFromFlags, usageLine, type TableCommand } from '../../local/console/control/command-line';

/**
 * The `control` command's flags and usage read from the operation table
 * (local/console/control/command-line.ts), and the audit line's ids from the
 * fields' own definitions (lambda/control/fields.ts): in process, no command
 * spawned (test/cli/control.test.ts runs the command itself).
 */
const done = async () => ({ body: {}, audit: {} });

/** An operation the table does not have: what any new entry gets without a line of the command's. */
const widgets = operation({
  request: z.strictObject({
    factoryId,
    contactId,
    sizes: z.optional(z.array(z.string())),
    spikeFloor: between('spikeFloor', 1, 100),
    shiny: z.optional(z.boolean()),
    colour: z.optional(z.enum(['red', 'blue'])),
    finish: z.optional(z.enum(['matt', 'satin', 'gloss'])),
    note: z.optional(described(z.string(), { placeholder: 'text' })),
  }),
  run: done,
});
const command: TableCommand = { words: 'widgets paint', operation: 'widgets.paint', fields: widgets.fields };
const WHERE = ['stack', 'region', 'url'];
const refusal = (values: Record<string, unknown>) => {
  try {
    requestFromFlags(command, {}, values, WHERE);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  return undefined;
};

describe('a command from its operation', () => {
  test('each request field is a flag: ids by their own flag, others in kebab case, a list in the singular, repeated', () => {
    expect(fieldOptions([command])).toEqual({
      factory: { type: 'string' },
      contact: { type: 'string' },
      size: { type: 'string', multiple: true },
      'spike-floor': { type: 'string' },
      shiny: { type: 'string' },
      colour: { type: 'string' },
      finish: { type: 'string' },
      note: { type: 'string' },
    });
    const values = { factory: 'fac_a', contact: 'ct_0123456789abcdef', size: ['s', 'm'], 'spike-floor': '5', shiny: 'yes', colour: 'red', note: 'hi' };
    expect(requestFromFlags(command, {}, values, WHERE)).toEqual({
      operation: 'widgets.paint',
      factoryId: 'fac_a',
      contactId: 'ct_0123456789abcdef',
      sizes: ['s', 'm'],
      spikeFloor: 5,
      shiny: true,
      colour: 'red',
      note: 'hi',
    });
  });

  test('its usage line: required flags bare, the others in brackets, from the fields in their order', () => {
    expect(usageLine(command, {})).toBe(
      'widgets paint --factory <fac_id> --contact <ct_id> [--size <size> …] [--spike-floor <N>] [--shiny yes|no] [--colour red|blue] [--finish matt|satin|gloss] [--note <text>]',
    );
  });

  test('a wrong command line is one line naming the flag: not taken, missing, not a whole number, not yes or no, not a choice', () => {
    const base = { factory: 'fac_a', contact: 'ct_0123456789abcdef' };
    expect(refusal({ ...base, origin: 'x' })).toBe('widgets paint does not take --origin');
    expect(refusal({ factory: 'fac_a' })).toBe('widgets paint needs --contact <ct_id>');
    expect(refusal({ ...base, 'spike-floor': 'lots' })).toBe('--spike-floor must be a whole number, got "lots"');
    expect(refusal({ ...base, shiny: 'maybe' })).toBe('--shiny must be yes or no, got "maybe"');
    expect(refusal({ ...base, colour: 'green' })).toBe('--colour must be red or blue, got "green"');
    expect(refusal({ ...base, finish: 'rough' })).toBe('--finish must be one of matt, satin, gloss, got "rough"');
    expect(refusal({ ...base, stack: 'prod' })).toBeUndefined();
  });

  test("an alternative flag gives a field its value, and not beside the field's own", () => {
    const shape = { alternatives: { contactId: { flag: 'email', placeholder: 'address', value: (raw: string) => `from ${raw}` } } };
    expect(requestFromFlags(command, shape, { factory: 'fac_a', email: 'a@b.co' }, WHERE)).toMatchObject({ contactId: 'from a@b.co' });
    expect(() => requestFromFlags(command, shape, { factory: 'fac_a', email: 'a@b.co', contact: 'ct_0123456789abcdef' }, WHERE)).toThrow(
      'give --contact or --email, not both',
    );
    expect(usageLine(command, shape)).toMatch(/^widgets paint --factory <fac_id> --contact <ct_id>\|--email <address> /);
  });

  test('fields of which exactly one is given show as one group of choices in the usage line', () => {
    expect(usageLine(command, { oneOf: ['contactId', 'note'] })).toBe(
      'widgets paint --factory <fac_id> (--contact <ct_id> | --note <text>) [--size <size> …] [--spike-floor <N>] [--shiny yes|no] [--colour red|blue] [--finish matt|satin|gloss]',
    );
  });

  test('the control command has a command for every operation of its groups, and no other', () => {
    const words = commandsOf(CONTROL_OPERATIONS, ['contacts', 'companies', 'enrichment', 'keys']).map((entry) => entry.words);
    expect(words).toEqual(
      [...CONTROL_OPERATIONS.keys()].filter((name) => /^(contacts|companies|enrichment|keys)\./.test(name)).map((name) => name.replace('.', ' ')),
    );
    expect(words).toEqual(
      expect.arrayContaining(['contacts list', 'contacts show', 'contacts export', 'contacts clear', 'companies list', 'companies contacts']),
    );
  });
  test('a list of choices takes each value only among them; a flag one command repeats and another takes once is refused when repeated there', () => {
    const tag = {
      words: 'tags set',
      operation: 'tags.set',
      fields: operation({ request: z.strictObject({ factoryId, types: z.optional(z.array(z.enum(['a', 'b', 'c']))) }), run: done }).fields,
    };
    const probe = {
      words: 'tags probe',
      operation: 'tags.probe',
      fields: operation({ request: z.strictObject({ factoryId, type: z.optional(z.enum(['a', 'b', 'c'])) }), run: done }).fields,
    };
    expect(fieldOptions([tag, probe]).type).toEqual({ type: 'string', multiple: true });
    expect(requestFromFlags(tag, {}, { factory: 'fac_a', type: ['a', 'c'] }, WHERE)).toEqual({ operation: 'tags.set', factoryId: 'fac_a', types: ['a', 'c'] });
    expect(() => requestFromFlags(tag, {}, { factory: 'fac_a', type: ['a', 'd'] }, WHERE)).toThrow('--type must be one of a, b, c, got "d"');
    expect(requestFromFlags(probe, {}, { factory: 'fac_a', type: ['b'] }, WHERE)).toEqual({ operation: 'tags.probe', factoryId: 'fac_a', type: 'b' });
    expect(() => requestFromFlags(probe, {}, { factory: 'fac_a', type: ['a', 'b'] }, WHERE)).toThrow('--type is given twice: give it once');
    expect(usageLine(tag, {})).toBe('tags set --factory <fac_id> [--type <type> …]');
  });
});

describe("the audit line's ids", () => {
  test('are the fields whose definition says so: a contact, an issue, a destination, an erased person key, never a key id or free text', () => {
    const audited = [...CONTROL_OPERATIONS.values()].flatMap((entry) => entry.fields.filter((field) => field.audited).map((field) => field.key));
    expect([...new Set(audited)].sort()).toEqual(['contactId', 'destinationId', 'issueId', 'personKey']);
  });

  test("a request names its audited fields' values, and only those", () => {
    expect(widgets.read('widgets.paint', { factoryId: 'fac_a', contactId: 'ct_0123456789abcdef', note: 'private words' }).audit).toEqual({
      contactId: 'ct_0123456789abcdef',
    });
    const revoke = operation({ request: z.strictObject({ factoryId, keyId }), run: done });
    expect(revoke.read('keys.revoke', { factoryId: 'fac_a', keyId: 'key_0123456789abcdef' }).audit).toEqual({});
  });
});

describe("a command line the parser refuses, in the command's words", () => {
  const OPTIONS = { factory: { type: 'string' }, origin: { type: 'string', multiple: true }, all: { type: 'boolean' }, ...COMMON_OPTIONS } as const;
  const refusalOf = (args: string[], env: NodeJS.ProcessEnv = {}) => {
    try {
      parseCommandLine(args, OPTIONS, env);
    } catch (error) {
      if (error instanceof UsageError) return error.message;
      throw error;
    }
    return undefined;
  };

  test('a mistyped option names the one it was likely meant as', () => {
    expect(refusalOf(['list', '--factroy', 'fac_demo'])).toBe('unknown option --factroy: did you mean --factory? (the options are in the usage below)');
    expect(refusalOf(['list', '--orign', 'https://a.example'])).toMatch(/did you mean --origin\?/);
    expect(refusalOf(['list', '--fac', 'fac_demo'])).toMatch(/did you mean --factory\?/);
  });

  test('an option like none of them says so, without a guess', () => {
    expect(refusalOf(['--verbose'])).toBe('unknown option --verbose (the options are in the usage below)');
  });

  test('a value missing, or given to a switch, is named', () => {
    expect(refusalOf(['list', '--factory'])).toBe('--factory needs a value: --factory <value>');
    expect(refusalOf(['list', '--all=yes'])).toBe('--all takes no value (it is a switch), got "yes"');
  });

  test('options npm kept for itself (no "--" after the script) are explained with the command written right', () => {
    // `npm run keys list --factory fac_demo`: npm sets npm_config_factory and passes only "list fac_demo" on.
    const env = { npm_lifecycle_event: 'keys', npm_config_factory: 'true' };
    expect(refusalOf(['list', 'fac_demo'], env)).toBe(
      'npm kept --factory for itself: after npm run keys, options reach the command only past "--", as in npm run keys -- … --factory …',
    );
    expect(refusalOf(['list', '--factory', 'fac_demo'], env)).toBeUndefined();
  });

  test('closestOption guesses only near misses', () => {
    expect(closestOption('stak', ['stack', 'region'])).toBe('stack');
    expect(closestOption('x', ['stack', 'region'])).toBeUndefined();
  });

  test('run by npm without "--", the keys command says what npm did instead of asking for --factory', async () => {
    const run = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
      const child = spawn('npm', ['run', '--silent', 'keys', 'list', '--factory', 'fac_demo'], {
        cwd: ROOT,
        env: { ...process.env, DYNAMODB_ENDPOINT: 'http://127.0.0.1:9' },
      });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('close', (status) => resolve({ status, stderr }));
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^error: npm kept --factory for itself: after npm run keys, options reach the command only past "--"/);
  }, 60_000);
});
