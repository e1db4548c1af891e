import * as z from 'zod/mini';
import { contactId, factoryId } from '../../../lambda/control/fields';
import { ControlError, operation, withCursor } from '../../../lambda/control/operation';
import type { ControlDependencies } from '../../../lambda/control/ports';

/** One control-room operation from its schema, defaults and run. */
const ran: unknown[] = [];
const widget = operation({
  request: z.strictObject({ factoryId, contactId, size: z.optional(z.number()), note: z.optional(z.string()) }),
  defaults: (parsed) => {
    if (parsed.size === 0) throw new ControlError(400, 'size must not be 0');
    return { ...parsed, size: parsed.size ?? 3 };
  },
  run: async (request) => {
    ran.push(request);
    return { body: { ok: true }, audit: { size: request.size } };
  },
});

describe('an operation', () => {
  test("lists the keys it takes, operation first, and its fields' flags", () => {
    expect(widget.keys).toEqual(['operation', 'factoryId', 'contactId', 'size', 'note']);
    expect(widget.fields.map((field) => field.flag)).toEqual(['factory', 'contact', 'size', 'note']);
  });

  test('reads a request: its defaults filled in, its name first, the audited ids named, nothing run yet', async () => {
    const read = widget.read('widgets.paint', { factoryId: 'fac_a', contactId: 'ct_0123456789abcdef', note: 'private words' });
    expect(read.request).toEqual({ operation: 'widgets.paint', factoryId: 'fac_a', contactId: 'ct_0123456789abcdef', note: 'private words', size: 3 });
    expect(read.audit).toEqual({ contactId: 'ct_0123456789abcdef' });
    expect(ran).toEqual([]);
    const done = await read.run({ deps: {} as ControlDependencies, caller: { principal: 'p' }, now: new Date(), keepGoing: () => true });
    expect(done).toEqual({ body: { ok: true }, audit: { size: 3 } });
  });

  test('a misspelt key is a 400 naming the keys it takes; each problem is said, joined', () => {
    const misspelt = () => widget.read('widgets.paint', { factoryId: 'fac_a', contactId: 'ct_0123456789abcdef', colour: 'red' });
    expect(misspelt).toThrow(ControlError);
    expect(misspelt).toThrow('unknown key "colour": widgets.paint takes operation, factoryId, contactId, size, note');
    expect(() => widget.read('widgets.paint', { factoryId: 'x', contactId: 'y' })).toThrow(
      /factoryId must look like "fac_acme"; contactId must be a contact id/,
    );
  });

  test("what the schema cannot say, the defaults refuse in the operation's words", () => {
    expect(() => widget.read('widgets.paint', { factoryId: 'fac_a', contactId: 'ct_0123456789abcdef', size: 0 })).toThrow('size must not be 0');
  });
});

test('a ControlError carries its status', () => {
  expect(new ControlError(404, 'no contact')).toMatchObject({ status: 404, message: 'no contact', name: 'ControlError' });
});

test('a list says where it goes on only while more remain', () => {
  expect(withCursor('c2')).toEqual({ cursor: 'c2' });
  expect(withCursor(undefined)).toEqual({});
});
