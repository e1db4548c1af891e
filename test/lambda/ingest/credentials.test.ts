import { readIngestCredential } from '../../../lambda/ingest/credentials';

const PK = `dfpk_${'p'.repeat(43)}`;
const SK = `dfsk_${'s'.repeat(43)}`;

describe("an ingest request's credential", () => {
  test('a publishable key as a bearer token or in ?key=', () => {
    expect(readIngestCredential([`Bearer ${PK}`], [])).toEqual({ kind: 'publishable', key: PK });
    expect(readIngestCredential([], [PK])).toEqual({ kind: 'publishable', key: PK });
    expect(readIngestCredential([`bearer   ${PK}  `], [PK])).toEqual({ kind: 'publishable', key: PK });
  });

  test('a secret key in either place is seen, whatever else is wrong: it leaked', () => {
    expect(readIngestCredential([`Bearer ${SK}`], [])).toEqual({ kind: 'secret', secret: SK });
    expect(readIngestCredential([], [PK, SK])).toEqual({ kind: 'secret', secret: SK });
  });

  test('none, not a bearer token, repeated, two different keys, or not a key: each said apart', () => {
    expect(readIngestCredential([], [])).toEqual({ kind: 'missing' });
    expect(readIngestCredential(['  '], [' '])).toEqual({ kind: 'missing' });
    expect(readIngestCredential([`Basic ${PK}`], [])).toEqual({ kind: 'not-bearer' });
    expect(readIngestCredential([`Bearer ${PK}`, `Bearer ${PK}`], [])).toEqual({ kind: 'repeated' });
    expect(readIngestCredential([], [PK, PK])).toEqual({ kind: 'repeated' });
    expect(readIngestCredential([`Bearer ${PK}`], [`dfpk_${'q'.repeat(43)}`])).toEqual({ kind: 'conflicting' });
    expect(readIngestCredential(['Bearer dfpk_short'], [])).toEqual({ kind: 'malformed' });
  });
});
