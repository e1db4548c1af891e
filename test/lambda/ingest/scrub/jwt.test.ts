import { jwtRule } from '../../../../lambda/ingest/scrub/jwt';
import { applied } from '../../../support/scrub';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';

describe('jwt rule', () => {
  test.each([
    [`Bearer ${JWT}`, 'Bearer [Filtered:jwt]'],
    [`https://h/cb#id_token=${JWT}&state=1`, 'https://h/cb#id_token=[Filtered:jwt]&state=1'],
    ['unsigned eyJhbGciOiJub25lIn0.eyJzdWIiOiJhIn0. token', 'unsigned [Filtered:jwt] token'],
    [`cut ${JWT.split('.').slice(0, 2).join('.')}`, 'cut [Filtered:jwt]'],
  ])('replaces a JSON Web Token: %s', (text, expected) => {
    expect(applied(jwtRule, text)).toEqual({ text: expected, count: 1 });
  });

  test.each([
    ['a word starting with eyJ', 'eyJump'],
    ['a dotted name', 'app.eyJs.min.js'],
  ])('keeps %s', (_, text) => {
    expect(applied(jwtRule, text)).toEqual({ text, count: 0 });
  });
});
