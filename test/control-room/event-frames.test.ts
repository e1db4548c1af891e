import { controlRoomWithFixedAnswers } from '../support/control-room';

/**
 * An event's frames on its page (docs/source-maps.md#reading-original-frames), with the operations replaced by
 * fixed answers: original frames with their source lines, the minified frame one click away, why a frame is not
 * resolved; and hostile text from an uploaded map (source names, sourcesContent) or a page's stack shown as text.
 */
const { answers, room } = controlRoomWithFixedAnswers();

const HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(2)>';
const EVENT = {
  eventId: '3b0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c11',
  factoryId: 'fac_frames',
  type: 'error',
  receivedAt: '2026-11-27T10:00:00.000Z',
  message: "TypeError: Cannot read properties of undefined (reading 'items')",
  exception: {
    type: 'TypeError',
    value: "Cannot read properties of undefined (reading 'items')",
    stack: 'TypeError: x\n    at o (https://shop.example.com/assets/app-1.js:2:54)',
  },
  frames: [
    {
      function: 'cartItems',
      source: `../src/${HOSTILE}.js`,
      line: 5,
      column: 23,
      context: { firstLine: 2, lines: ['', 'export function cartItems() {', `  // ${HOSTILE}`, '  return session.cart.items;', '}'] },
      app: true,
      minified: { function: 'o', url: 'https://shop.example.com/assets/app-1.js', line: 2, column: 54, debugId: '3d11fdbb-678d-44ec-a3b6-b8f35ffebdb2' },
    },
    {
      minified: { function: `e${HOSTILE}`, url: 'https://cdn.example.com/vendor.js', line: 1, column: 9 },
      whyNotResolved: `no map uploaded for release ${HOSTILE} and path ~/vendor.js`,
    },
  ],
};

const page = async () => {
  answers.set('reports.event', { status: 200, body: { event: EVENT } });
  return (await room().get(`/f/fac_frames/reports/events/${EVENT.eventId}`)).text;
};

test("an event's page shows each original frame with its source lines, the frame's own line marked, and its minified frame one click away", async () => {
  const text = await page();
  const frames = /<ol class="frames" id="event-frames">([\s\S]*?)<\/ol>/.exec(text)?.[1] ?? '';
  expect(frames).toContain('<strong>cartItems</strong>');
  expect(frames).toMatch(/<span class="frame-line">&gt;\s+5 \| {3}return session\.cart\.items;/);
  expect(frames).toMatch(
    /<details class="minified-frame"><summary>minified frame<\/summary><code>o https:\/\/shop\.example\.com\/assets\/app-1\.js:2:54<\/code>/,
  );
  expect(text).toContain('1 of 2 script frames resolved through source maps');
});

test('a frame not resolved says why', async () => {
  const text = await page();
  expect(text).toMatch(/<p class="why-not-resolved">Not resolved: no map uploaded for release &lt;script&gt;/);
});

test("a map's source names and source lines, and a page's function names, are shown as text, never as markup", async () => {
  const text = await page();
  expect(text).not.toContain('<script>alert(1)');
  expect(text).not.toContain('<img src=x');
  expect(text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;');
  const tags = (text.match(/<[a-zA-Z][^>]*>/g) ?? []).filter((tag) => /^<(script|img)\b/i.test(tag) && !/\bsrc="\/assets\//.test(tag));
  expect(tags).toEqual([]);
});

test("a server's frames show as sent: function, module, file, line and the lines around, no source-map count and no reason; others' code dimmed", async () => {
  const server = {
    ...EVENT,
    issueId: 'iss_0123456789abcdef0123',
    frames: [
      {
        function: 'parse_order',
        module: 'orders',
        source: '/srv/releases/124/orders.py',
        line: 12,
        context: { firstLine: 11, lines: ['def parse_order(raw):', '    return int(raw["id"])', ''] },
        app: true,
      },
      { function: 'dispatch_request', module: 'flask.app', source: '/usr/lib/python3/dist-packages/flask/app.py', line: 880, app: false },
    ],
  };
  answers.set('reports.event', { status: 200, body: { event: server } });
  const text = (await room().get(`/f/fac_frames/reports/events/${EVENT.eventId}`)).text;
  expect(text).toContain('2 frames as the SDK sent them');
  expect(text).toContain('<li class="frame server"><strong>parse_order</strong> <code>orders · /srv/releases/124/orders.py:12</code>');
  expect(text).toMatch(/<span class="frame-line">&gt;\s+12 \| {5}return int\(raw\[&quot;id&quot;\]\)/);
  expect(text).toContain('<li class="frame server others-code"><strong>dispatch_request</strong>');
  expect(text).not.toContain('Not resolved');
  expect(text).not.toContain('resolved through source maps');
  // The event page links to the issue that counts it (reports.event answers that issue's id).
  expect(text).toMatch(/<p id="event-issue">Issue: <a href="[^"]*\/f\/fac_frames\/reports\/issues\/iss_0123456789abcdef0123"/);
});
