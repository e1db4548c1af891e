/** Whole requests: upserts, reads and anything at all, each with hostile parts; and requests to the ingest API. */
import fc from 'fast-check';
import { anyBody, oversizedBody } from './bodies';
import { authorization, otherField } from './headers';
import type { FuzzRequest } from './request';
import { ingestRequest } from './ingest-requests';
import { emailQuery, idSegmentFor, target } from './targets';
import type { FuzzWorld } from './world';

const method = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('GET', 'POST') },
  { weight: 2, arbitrary: fc.constantFrom('PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'CONNECT') },
  { weight: 1, arbitrary: fc.constantFrom('get', 'post', 'PROPFIND', 'PURGE', 'QUERY') },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z][A-Za-z-]{0,9}$/) },
);

/** Puts the Authorization fields somewhere among the others. */
const headers = (world: FuzzWorld, maxOther: number) =>
  fc.tuple(authorization(world), fc.array(otherField(world), { maxLength: maxOther }), fc.nat()).map(([auth, other, at]) => {
    const i = other.length === 0 ? 0 : at % (other.length + 1);
    return [...other.slice(0, i), ...auth, ...other.slice(i)];
  });

/** Stored addresses valid upserts may reuse: the caller's own and the shared one, never the other tenant's alone. */
const upsertEmails = (world: FuzzWorld) => world.own.contacts.map((c) => c.email);
/** Another tenant's identifiers, to try in the fields no caller may set. */
const foreignIds = (world: FuzzWorld) => [world.other.factoryId, ...world.other.contacts.map((c) => c.id), world.own.contacts[0]?.id ?? 'ct_x'];

/** Any request at all: weighted towards ones that get past the early checks, so the later ones are reached too. */
export function hostileRequest(world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  const body = anyBody(upsertEmails(world), foreignIds(world));
  const upsert = fc.record({
    method: fc.oneof({ weight: 9, arbitrary: fc.constant('POST') }, { weight: 1, arbitrary: method }),
    target: fc.constantFrom('/api/v1/contacts', '/api/v1/contacts/', '/api/v1/contacts?email=ada%40example.com', '/api/v1/contacts?key=x'),
    headers: headers(world, 2),
    // Oversized bodies often enough that even a small sample meets the 413.
    generated: fc.oneof({ weight: 5, arbitrary: body }, { weight: 1, arbitrary: oversizedBody(upsertEmails(world), foreignIds(world)) }),
  });
  const read = fc.record({
    method: fc.oneof({ weight: 9, arbitrary: fc.constant('GET') }, { weight: 1, arbitrary: method }),
    target: fc.oneof(
      idSegmentFor(world).map((id) => `/api/v1/contacts/${id}`),
      emailQuery(world).map((query) => `/api/v1/contacts${query}`),
    ),
    headers: headers(world, 2),
    generated: fc.oneof({ weight: 9, arbitrary: fc.constant({ body: Buffer.alloc(0) }) }, { weight: 1, arbitrary: body }),
  });
  const anything = fc.record({ method, target: target(world), headers: headers(world, 5), generated: body });
  const contacts = fc
    .oneof({ weight: 4, arbitrary: upsert }, { weight: 3, arbitrary: read }, { weight: 3, arbitrary: anything })
    .map(({ method: m, target: t, headers: h, generated }): FuzzRequest => ({ method: m, target: t, headers: h, ...generated }));
  // A third to the ingest API (/ingest/v1/*), which the host serves beside the contacts API.
  return fc.oneof({ weight: 2, arbitrary: contacts }, { weight: 1, arbitrary: ingestRequest(world) });
}
