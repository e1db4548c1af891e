import { CSV_COLUMNS, csvCell, csvHeader, csvRow, jsonlRow } from '../../../lambda/control/export-format';
import { controlView } from '../../../lambda/control/view';
import type { StoredContact } from '../../../lambda/contacts/enrichment/ports';

const contact = (fields: Partial<StoredContact> = {}): StoredContact => ({
  id: 'ct_0123456789abcdef',
  factoryId: 'fac_u',
  email: 'a@b.co',
  source: 'api',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
  ...fields,
});

describe('CSV export', () => {
  test.each([
    ['plain', 'plain'],
    ['a, b', '"a, b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['=HYPERLINK("http://evil","x")', `"'=HYPERLINK(""http://evil"",""x"")"`],
    ['+1 555 0100', "'+1 555 0100"],
    ['-2', "'-2"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t=1"],
    ['', ''],
  ])('csvCell(%j) is %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  test('a row has one cell per column, objects as JSON text, absent values empty, CRLF at the end', () => {
    const view = controlView(
      contact({
        name: 'Ada',
        enriched: true,
        enrichment: { provider: 'P', at: '2026-01-03T00:00:00.000Z', fields: { title: 'CTO' } },
        cleared: { phone: { value: '1', at: '2026-01-04T00:00:00.000Z', by: 'arn' } },
      }),
    );
    expect(csvHeader()).toBe(`${CSV_COLUMNS.join(',')}\r\n`);
    expect(csvRow(view)).toBe(
      'ct_0123456789abcdef,fac_u,a@b.co,Ada,,,,,api,,2026-01-01T00:00:00.000Z,2026-01-02T00:00:00.000Z,true,P,2026-01-03T00:00:00.000Z,' +
        '"{""title"":""CTO""}",,"{""phone"":{""value"":""1"",""at"":""2026-01-04T00:00:00.000Z"",""by"":""arn""}}"\r\n',
    );
  });

  test('a JSON Lines row is the contact as contacts list shows it', () => {
    const view = controlView(contact({ title: 'x' }));
    expect(JSON.parse(jsonlRow(view))).toEqual(view);
    expect(jsonlRow(view).endsWith('\n')).toBe(true);
  });
});
