import * as z from 'zod/mini';
import { described, factoryId } from '../../../lambda/control/fields';
import { requestFields } from '../../../lambda/control/request-fields';

const fields = (shape: Record<string, z.ZodMiniType>) => requestFields(shape as never);

describe("a request's fields, read from its schema", () => {
  test('a flag in kebab case, its kind from its type, required unless optional', () => {
    expect(fields({ factoryId, spikeFloor: z.optional(z.number()), enriched: z.optional(z.boolean()) })).toEqual([
      { key: 'factoryId', flag: 'factory', placeholder: 'fac_id', kind: 'text', required: true, audited: false },
      { key: 'spikeFloor', flag: 'spike-floor', placeholder: 'N', kind: 'number', required: false, audited: false },
      { key: 'enriched', flag: 'enriched', placeholder: '', kind: 'yes-no', required: false, audited: false },
    ]);
  });

  test("a list's flag is in the singular, with its items' choices", () => {
    expect(fields({ types: z.optional(z.array(z.enum(['a', 'b']))) })).toEqual([
      { key: 'types', flag: 'type', placeholder: 'type', kind: 'list', required: false, audited: false, choices: ['a', 'b'] },
    ]);
  });

  test('an enum shows its choices as the placeholder; a pipe is read by what goes in', () => {
    const [colour, when] = fields({
      colour: z.enum(['red', 'blue']),
      when: z.optional(
        z.pipe(
          z.string(),
          z.transform((s) => s.length),
        ),
      ),
    });
    expect(colour).toMatchObject({ kind: 'text', placeholder: 'red|blue', choices: ['red', 'blue'] });
    expect(when).toMatchObject({ kind: 'text', required: false });
  });

  test('a yes-or-no field described as a switch is a switch: given means yes', () => {
    expect(fields({ servers: z.optional(described(z.boolean(), { switch: true })) })[0]).toMatchObject({ flag: 'servers', kind: 'switch', placeholder: '' });
  });

  test('an audited field says so; its own flag and placeholder win over the defaults', () => {
    expect(fields({ destinationId: described(z.string(), { flag: 'destination', placeholder: 'dst_id', audited: true }) })[0]).toEqual({
      key: 'destinationId',
      flag: 'destination',
      placeholder: 'dst_id',
      kind: 'text',
      required: true,
      audited: true,
    });
  });
});
