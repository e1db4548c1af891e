import type { Issue } from '../../../../lambda/ingest/issues/issue';
import { decodeIssueCursor, encodeIssueCursor, pageOfIssues, sortValue, titleMatches } from '../../../../lambda/ingest/issues/issue-list';
import { InvalidCursorError } from '../../../../lambda/kernel/errors';

const issue = (n: number, fields: Partial<Issue> = {}): Issue =>
  ({
    factoryId: 'fac_a',
    issueId: `iss_${String(n).padStart(20, '0')}`,
    title: `Error ${n}`,
    count: n,
    lastSeen: `2026-11-${String(10 + (n % 5)).padStart(2, '0')}T00:00:00.000Z`,
    visitors: { sketch: { kind: 'exact', hashes: Array.from({ length: n % 3 }, (_, k) => `h${k}`) } },
    ...fields,
  }) as Issue;
const ISSUES = Array.from({ length: 12 }, (_, n) => issue(n + 1));
const SCOPE = { factoryId: 'fac_a', sort: 'events' as const };

describe('a page of the issue list', () => {
  test('pages by events reach every issue once, most first, whatever the page size', () => {
    for (const limit of [1, 5, 12, 50]) {
      const seen: number[] = [];
      let after;
      do {
        const page = pageOfIssues(ISSUES, { sort: 'events', limit, ...(after ? { after } : {}) });
        seen.push(...page.issues.map((found) => found.count));
        after = page.next;
      } while (after);
      expect(seen).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    }
  });

  test('sorts by last seen, by events or by visitors, ties by id descending', () => {
    expect(sortValue(issue(4), 'lastSeen')).toBe('2026-11-14T00:00:00.000Z');
    expect(sortValue(issue(4), 'events')).toBe(4);
    expect(sortValue(issue(5), 'visitors')).toBe(2);
    const byVisitors = pageOfIssues(ISSUES, { sort: 'visitors', limit: 3 }).issues.map((found) => found.issueId.slice(-2));
    expect(byVisitors).toEqual(['11', '08', '05']);
  });

  test('a title search ignores case', () => {
    expect(titleMatches('TypeError: Cart', 'typeerror: cart')).toBe(true);
    expect(pageOfIssues(ISSUES, { sort: 'events', limit: 50, search: 'ERROR 1' }).issues.map((found) => found.count)).toEqual([12, 11, 10, 1]);
  });
});

describe("the list's cursor", () => {
  test('reads back the position it was made from', () => {
    const cursor = encodeIssueCursor(SCOPE, { value: 7, issueId: 'iss_7' });
    expect(decodeIssueCursor(cursor, SCOPE)).toEqual({ value: 7, issueId: 'iss_7' });
  });

  test('goes on only in its own list: another factory, order, status or search is refused', () => {
    const cursor = encodeIssueCursor(SCOPE, { value: 7, issueId: 'iss_7' });
    for (const other of [
      { ...SCOPE, factoryId: 'fac_b' },
      { ...SCOPE, sort: 'visitors' as const },
      { ...SCOPE, status: 'open' as const },
      { ...SCOPE, search: 'x' },
    ]) {
      expect(() => decodeIssueCursor(cursor, other)).toThrow(InvalidCursorError);
    }
    expect(() => decodeIssueCursor('garbage', SCOPE)).toThrow(InvalidCursorError);
  });
});
