import { controlRoomWithFixedAnswers } from '../support/control-room';

/**
 * The issue list and an issue's page over HTTP, with the operations replaced
 * by fixed answers: what the list asks `issues.list` for (order, search,
 * cursor) and how it pages; the trends drawn as inline SVG readable without
 * colour; and hostile answers (markup in a title, a search, a period key,
 * counts that are not counts) shown as text, never as markup.
 */
const { answers, asked, room } = controlRoomWithFixedAnswers();

// fac_pages has a key, so its pages are a factory's (the room asks once, then knows it): what a page asks is its own.
beforeAll(async () => {
  answers.set('keys.list', { status: 200, body: { factoryId: 'fac_pages', keys: [{ keyId: 'key_0123456789abcdef', type: 'secret', status: 'active' }] } });
  await room().get('/f/fac_pages/reports/issues');
});

const ISSUE = {
  issueId: 'iss_0123456789abcdef0123',
  title: 'TypeError: x is undefined',
  status: 'open',
  count: 1234,
  visitors: 312,
  visitorsExact: false,
  firstSeen: '2026-11-20T09:00:00.000Z',
  lastSeen: '2026-11-26T10:59:00.000Z',
  firstRelease: 'web@2.4.0',
  lastRelease: 'web@2.4.1',
};
const hours = (values: number[]) => values.map((events, i) => ({ start: `2026-11-26T${String(i).padStart(2, '0')}`, events }));
const days = (values: number[]) => values.map((events, i) => ({ start: `2026-11-${String(13 + i).padStart(2, '0')}`, events }));

/** Tags that would run code or style inline (a page's text has every `<` escaped: each tag matched is one the server wrote). */
const inlineCode = (page: string) =>
  (page.match(/<[a-zA-Z][^>]*>/g) ?? []).filter((tag) => {
    const names = tag.replace(/"[^"]*"/g, '""');
    return /^<script(?![^>]*\bsrc=)/i.test(tag) || /\son[a-z]+\s*=/i.test(names) || /\sstyle\s*=/i.test(names) || /^<style/i.test(tag);
  });

test("an issue's page draws its 24 hours and 14 days as two SVG bar charts, each bar's count written beside it, with visitors and its first and last release", async () => {
  const hourly = hours(Array.from({ length: 24 }, (_, i) => (i === 23 ? 40 : i % 5)));
  const daily = days(Array.from({ length: 14 }, (_, i) => i * 10));
  answers.set('issues.show', { status: 200, body: { issue: ISSUE, trend: { hourly, daily }, events: [] } });
  const page = (await room().get(`/f/fac_pages/reports/issues/${ISSUE.issueId}`)).text;
  const charts = page.match(/<svg[\s\S]*?<\/svg>/g) ?? [];
  expect(charts).toHaveLength(2);
  const [hourChart = '', dayChart = ''] = charts;
  // Every bar: a rect and its count as text; the busiest hour's 40 among them.
  expect(hourChart.match(/<rect /g)).toHaveLength(24);
  expect(dayChart.match(/<rect /g)).toHaveLength(14);
  expect([...hourChart.matchAll(/<text class="value[^"]*"[^>]*>(\d+)<\/text>/g)].map((match) => Number(match[1]))).toEqual(hourly.map((point) => point.events));
  expect(hourChart).toContain('<title>2026-11-26 23:00 UTC: 40 events</title>');
  expect(hourChart).toMatch(/aria-label="Events per hour over the last 24 hours \(UTC\): 2026-11-26 00:00 UTC 0, 2026-11-26 01:00 UTC 1,/);
  expect(page).toContain('Events per day over the last 14 days (UTC). 910 events in all; the most, 130, in 2026-11-26.');
  expect(page).toMatch(/<strong>about 312<\/strong> visitors affected/);
  expect(page).toMatch(/<strong>web@2\.4\.0<\/strong> first release/);
  expect(page).toMatch(/<strong>web@2\.4\.1<\/strong> last release/);
  expect(inlineCode(page)).toEqual([]);
});

test('a trend without events says so, and draws no bar taller than nothing', async () => {
  answers.set('issues.show', {
    status: 200,
    body: {
      issue: { ...ISSUE, visitors: 0, visitorsExact: true },
      trend: { hourly: hours(new Array(24).fill(0)), daily: days(new Array(14).fill(0)) },
      events: [],
    },
  });
  const page = (await room().get(`/f/fac_pages/reports/issues/${ISSUE.issueId}`)).text;
  expect(page.match(/No events in this period\./g)).toHaveLength(2);
  expect(page).not.toMatch(/<rect [^>]*height="[1-9]/);
});

test('hostile answers: markup in a title, a period key and a release is text; counts that are not counts draw as 0', async () => {
  const evil = '"><script>window.__pwned=1</script><svg onload="window.__pwned=1">';
  const hourly = [
    { start: evil, events: 5 },
    { start: '2026-11-26T01', events: -7 },
    { start: '2026-11-26T02', events: 'lots' },
    { start: '2026-11-26T03', events: Number.NaN },
  ];
  answers.set('issues.show', {
    status: 200,
    body: { issue: { ...ISSUE, title: evil, lastRelease: evil }, trend: { hourly, daily: 'not a list' }, events: [] },
  });
  const page = (await room().get(`/f/fac_pages/reports/issues/${ISSUE.issueId}`)).text;
  expect(page).not.toContain(evil);
  expect(page).toContain('&quot;&gt;&lt;script&gt;window.__pwned=1&lt;/script&gt;');
  expect(inlineCode(page)).toEqual([]);
  const [hourChart = ''] = page.match(/<svg[\s\S]*?<\/svg>/g) ?? [];
  // The point whose count is text is left out; -7 and NaN are no events.
  expect([...hourChart.matchAll(/<text class="value[^"]*"[^>]*>([^<]*)<\/text>/g)].map((match) => match[1])).toEqual(['5', '0', '0']);
});

test('the list asks issues.list for the order, search and cursor in its address, and its pager keeps them', async () => {
  answers.set('issues.list', {
    status: 200,
    body: { issues: [{ ...ISSUE, visitors: 3, visitorsExact: true }], filtered: {}, cursor: 'CURSOR-2', scanned: 2000, complete: false },
  });
  asked.length = 0;
  const page = (await room().get('/f/fac_pages/reports/issues?status=any&sort=events&q=%20checkout%20&cursor=CURSOR-1&page=2')).text;
  expect(asked).toEqual([
    expect.objectContaining({ operation: 'issues.list', factoryId: 'fac_pages', sort: 'events', search: 'checkout', cursor: 'CURSOR-1' }),
  ]);
  expect(asked[0]).not.toHaveProperty('status');
  expect(page).toContain(
    '<a rel="next" href="/f/fac_pages/reports/issues?status=any&amp;sort=events&amp;q=checkout&amp;cursor=CURSOR-2&amp;page=3">Next page</a>',
  );
  expect(page).toContain('Sorted and searched among the 2000 most recently seen issues only.');
  expect(page).toMatch(/<option value="events" selected>most events<\/option>/);
  expect(page).toMatch(/<td>1234<\/td><td>3<\/td>/);
});

test('the list says how many events the tally set aside and why, and links the latest to its page; hostile answers stay text', async () => {
  const eventId = '8f0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c11';
  answers.set('issues.list', {
    status: 200,
    body: {
      issues: [],
      filtered: {},
      setAside: { counts: { malformed: 2, unreadable: 1 }, last: { eventId, reason: 'malformed', detail: 'receivedAt', at: '2031-03-01T12:00:00Z' } },
    },
  });
  const page = (await room().get('/f/fac_pages/reports/issues')).text;
  expect(page).toContain('3 stored events could not be counted and were set aside: malformed 2, unreadable 1.');
  expect(page).toContain(`href="/f/fac_pages/reports/events/${eventId}"`);
  expect(page).toContain('(malformed: receivedAt)');
  const evil = '<img src=x onerror="window.__pwned=1">';
  answers.set('issues.list', {
    status: 200,
    body: { issues: [], filtered: {}, setAside: { counts: { [evil]: 1 }, last: { eventId: evil, reason: evil, at: 'x' } } },
  });
  const hostile = (await room().get('/f/fac_pages/reports/issues')).text;
  expect(hostile).not.toContain(evil);
  expect(hostile).toContain('&lt;img src=x');
  expect(inlineCode(hostile)).toEqual([]);
  answers.set('issues.list', { status: 200, body: { issues: [], filtered: {}, setAside: { counts: {} } } });
  expect((await room().get('/f/fac_pages/reports/issues')).text).not.toContain('set aside');
});

test('an unknown order is last seen; a blank search is none; a search with markup comes back escaped in the form', async () => {
  answers.set('issues.list', { status: 200, body: { issues: [], filtered: {} } });
  asked.length = 0;
  const evil = '"><svg onload="window.__pwned=1">';
  const page = (await room().get(`/f/fac_pages/reports/issues?sort=title&q=${encodeURIComponent(evil)}`)).text;
  await room().get('/f/fac_pages/reports/issues?q=%20%20');
  expect(asked[0]).toMatchObject({ sort: 'lastSeen', search: evil, status: 'open' });
  expect(asked[1]).not.toHaveProperty('search');
  expect(page).not.toContain(evil);
  expect(page).toContain('value="&quot;&gt;&lt;svg onload=&quot;window.__pwned=1&quot;&gt;"');
  expect(page).toContain('No open issues with that in their title.');
  expect(inlineCode(page)).toEqual([]);
});

describe('between an issue and its events', () => {
  const EVENT = {
    eventId: '3b0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c11',
    factoryId: 'fac_pages',
    issueId: ISSUE.issueId,
    type: 'error',
    receivedAt: '2026-11-26T10:59:00.000Z',
    message: 'TypeError: x is undefined',
    exception: { type: 'TypeError', value: 'x is undefined', stack: 'TypeError: x is undefined\n    at o (https://shop.example.com/assets/app-1.js:2:54)' },
    frames: [
      {
        function: 'cartItems',
        source: '../src/cart.js',
        line: 5,
        column: 23,
        minified: { function: 'o', url: 'https://shop.example.com/assets/app-1.js', line: 2, column: 54 },
      },
    ],
  };
  const trend = { hourly: hours([]), daily: days([]) };

  test("an issue's page shows the latest event's stack: its frames as resolved, the stack as sent, and a link to that event", async () => {
    const older = { ...EVENT, eventId: '4c1d2b63-8a1f-4b6f-8b54-4a2f3c9daf21', frames: [], exception: { ...EVENT.exception, stack: 'older stack' } };
    answers.set('issues.show', { status: 200, body: { issue: ISSUE, trend, events: [EVENT, older] } });
    const page = (await room().get(`/f/fac_pages/reports/issues/${ISSUE.issueId}`)).text;
    const section = /<section aria-labelledby="latest-stack">([\s\S]*?)<\/section>/.exec(page)?.[1] ?? '';
    expect(section).toContain(`href="/f/fac_pages/reports/events/${EVENT.eventId}"`);
    expect(section).toMatch(/<strong>cartItems<\/strong> <code>\.\.\/src\/cart\.js:5:23<\/code>/);
    expect(section).toContain('at o (https://shop.example.com/assets/app-1.js:2:54)');
    expect(section).not.toContain('older stack');
  });

  test('an issue whose latest event has no frames shows its stack as sent, open; one with no events kept shows no stack section', async () => {
    answers.set('issues.show', { status: 200, body: { issue: ISSUE, trend, events: [{ ...EVENT, frames: undefined }] } });
    const page = (await room().get(`/f/fac_pages/reports/issues/${ISSUE.issueId}`)).text;
    expect(page).toMatch(/<details open><summary>Stack as sent<\/summary><pre class="text stack" id="issue-stack">TypeError: x is undefined/);
    answers.set('issues.show', { status: 200, body: { issue: ISSUE, trend, events: [] } });
    expect((await room().get(`/f/fac_pages/reports/issues/${ISSUE.issueId}`)).text).not.toContain('latest-stack');
  });

  test("an event's page links back to its issue, and still to the list of events", async () => {
    answers.set('reports.event', { status: 200, body: { event: EVENT } });
    const page = (await room().get(`/f/fac_pages/reports/events/${EVENT.eventId}`)).text;
    expect(page).toContain(`<a href="/f/fac_pages/reports/issues/${ISSUE.issueId}" id="event-issue">Its issue</a>`);
    expect(page).toContain('<a href="/f/fac_pages/reports/events">Back to the list</a>');
    answers.set('reports.event', { status: 200, body: { event: { ...EVENT, issueId: undefined } } });
    expect((await room().get(`/f/fac_pages/reports/events/${EVENT.eventId}`)).text).not.toContain('event-issue');
  });
});

test("an issue's page lists its user feedback newest first, asking feedback.list for the issue; strangers' words, names and pages stay text", async () => {
  const evil = '"><script>window.__pwned=1</script><img src=x onerror="window.__pwned=1">';
  answers.set('issues.show', { status: 200, body: { issue: ISSUE, trend: { hourly: [], daily: [] }, events: [] } });
  answers.set('feedback.list', {
    status: 200,
    body: {
      feedback: [
        {
          feedbackId: '0b7c1a52-7f0e-4a5e-9a43-3f1e2b8c9d10',
          receivedAt: '2026-11-26T10:59:00.000Z',
          message: `It broke\n${evil}`,
          source: 'feedback',
          contactId: 'ct_0123456789abcdef',
          reporter: { name: evil, email: 'ada@example.com' },
          url: evil,
        },
        { feedbackId: '1c8d2b63-8a1f-4b6f-8b54-4a2f3c9daf21', receivedAt: '2026-11-26T10:00:00.000Z', message: 'Second thoughts', source: 'user_report' },
      ],
    },
  });
  asked.length = 0;
  const page = (await room().get(`/f/fac_pages/reports/issues/${ISSUE.issueId}`)).text;
  expect(asked).toEqual(expect.arrayContaining([expect.objectContaining({ operation: 'feedback.list', factoryId: 'fac_pages', issueId: ISSUE.issueId })]));
  const section = page.slice(page.indexOf('id="issue-feedback"'));
  expect(section.indexOf('It broke')).toBeLessThan(section.indexOf('Second thoughts'));
  expect(page).not.toContain(evil);
  expect(page).toContain('&lt;script&gt;window.__pwned=1&lt;/script&gt;');
  expect(inlineCode(page)).toEqual([]);
  expect(page).toContain('href="/f/fac_pages/contacts/ct_0123456789abcdef"');
  // The contact link stands for the person: their email is not on the page.
  expect(page).not.toContain('ada@example.com');
});

test("an issue's page says when it has no feedback, and when feedback could not be read", async () => {
  answers.set('issues.show', { status: 200, body: { issue: ISSUE, trend: { hourly: [], daily: [] }, events: [] } });
  answers.set('feedback.list', { status: 200, body: { feedback: [] } });
  expect((await room().get(`/f/fac_pages/reports/issues/${ISSUE.issueId}`)).text).toContain('No user feedback on this issue.');
  answers.set('feedback.list', { status: 500, body: { error: 'user feedback is not wired to this control room (no reports table)' } });
  expect((await room().get(`/f/fac_pages/reports/issues/${ISSUE.issueId}`)).text).toContain('Feedback could not be read: user feedback is not wired');
});
