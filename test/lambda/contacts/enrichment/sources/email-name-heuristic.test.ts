import { EmailNameHeuristic, nameFromEmail } from '../../../../../lambda/contacts/enrichment/sources/email-name-heuristic';

describe('a display name derived from a first.last@ address', () => {
  test.each([
    ['ada.lovelace@example.com', 'Ada Lovelace'],
    ['grace_hopper@navy.mil', 'Grace Hopper'],
    ['mary-jane.watson@example.com', 'Mary-Jane Watson'],
    ['jean.luc.picard@example.com', 'Jean Luc Picard'],
    ['ada.lovelace+crm@example.com', 'Ada Lovelace'],
    ['zoë.müller@example.de', 'Zoë Müller'],
  ])('nameFromEmail(%s) = %s', (email, name) => {
    expect(nameFromEmail(email)).toBe(name);
  });

  test.each([
    'ada@example.com',
    'info@example.com',
    'no.reply@example.com',
    'no_reply@example.com',
    'do.not.reply@example.com',
    'customer.service@example.com',
    'sales.team@example.com',
    'admin.admin@example.com',
    'mail.delivery@example.com',
    'j.doe@example.com',
    'user.1234@example.com',
    'a.b.c.d@example.com',
  ])('nameFromEmail(%s) finds nothing', (email) => {
    expect(nameFromEmail(email)).toBeUndefined();
  });

  test('nameFromEmail reads decomposed accents as composed ones', () => {
    expect(nameFromEmail('zoe\u0301.mu\u0308ller@example.de')).toBe('Zoé Müller');
  });

  test('as a source, it is derived (not a data find) and finds a name only', async () => {
    const source = new EmailNameHeuristic();
    expect(source.derived).toBe(true);
    expect(await source.lookup({ email: 'grace.hopper@navy.mil' })).toEqual({ name: 'Grace Hopper' });
    expect(await source.lookup({ email: 'sales@navy.mil' })).toEqual({});
  });
});
