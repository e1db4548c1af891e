import { startReceiver, type Receiver } from '../support/alerts';
import { startControlRoom, type ControlRoom } from '../support/control-room';
import { newFactoryId } from '../support/local-api';

/**
 * The control room's Alerts page over HTTP, as its browser uses it: the
 * destinations with their state and last delivery, the spike rule and the
 * log, with what operators typed (a description, a reason) shown as text;
 * its buttons are alerts.* operations through /api/operation.
 */
let room: ControlRoom;
let receiver: Receiver;
beforeAll(async () => {
  [room, receiver] = await Promise.all([startControlRoom(), startReceiver()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([room?.close(), receiver?.close()]);
});

/** A factory of its own, with a key: a factory exists once one was issued for it (its pages answer 404 before). */
async function newFactory(label: string): Promise<string> {
  const factoryId = newFactoryId(label);
  expect((await room.operation({ operation: 'keys.create', factoryId })).status).toBe(200);
  return factoryId;
}

test("a destination added, tested and disabled through the page's operations shows its state, its last delivery and the log; typed text is escaped", async () => {
  const factoryId = await newFactory('crall');
  const added = await room.operation({ operation: 'alerts.add', factoryId, url: receiver.url, description: '<script>alert(1)</script>' });
  expect(added.status).toBe(200);
  const { destinationId } = JSON.parse(added.text) as { destinationId: string };
  expect((await room.operation({ operation: 'alerts.test', factoryId, destinationId })).status).toBe(200);
  expect((await room.operation({ operation: 'alerts.disable', factoryId, destinationId, reason: 'moving <b>hosts</b>' })).status).toBe(200);
  expect((await room.operation({ operation: 'alerts.configure', factoryId, spikeMultiple: 7 })).status).toBe(200);

  const page = await room.get(`/f/${factoryId}/alerts`);
  expect(page.status).toBe(200);
  expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  expect(page.text).not.toContain('<script>alert(1)');
  expect(page.text).toContain('moving &lt;b&gt;hosts&lt;/b&gt;');
  expect(page.text).toContain(`data-destination="${destinationId}"`);
  expect(page.text).toMatch(/<strong>disabled<\/strong>/);
  expect(page.text).toMatch(/issue\.created \(test\), HTTP 204/);
  expect(page.text).toContain('id="spike-multiple" name="spikeMultiple" type="number" min="2" max="1000" value="7"');
  expect(page.text).toContain('<table class="list" id="deliveries">');
  expect(page.text).not.toContain('whsec_');
});

test('a factory without destinations says where its alerts go', async () => {
  const page = await room.get(`/f/${await newFactory('crnone')}/alerts`);
  expect(page.text).toContain('No webhook destination yet');
});

test("the release rule's settings are on the page, and a release alert's delivery names its release and environment, not an issue", async () => {
  const factoryId = await newFactory('crrel');
  const added = await room.operation({ operation: 'alerts.add', factoryId, url: receiver.url });
  const { destinationId } = JSON.parse(added.text) as { destinationId: string };
  expect((await room.operation({ operation: 'alerts.test', factoryId, destinationId, type: 'release.unhealthy' })).status).toBe(200);
  expect((await room.operation({ operation: 'alerts.configure', factoryId, crashFreeThreshold: 0.97, releaseMinSessions: 40 })).status).toBe(200);

  const page = await room.get(`/f/${factoryId}/alerts`);
  expect(page.text).toContain('<h2>Release rule</h2>');
  expect(page.text).toContain('name="crashFreeThreshold" type="number" step="any" min="0.5" max="1" value="0.97"');
  expect(page.text).toContain('name="releaseMinSessions" type="number" min="1" max="1000000" value="40"');
  expect(page.text).toMatch(/<td class="words">release\.unhealthy \(test\)<\/td><td>test <span class="muted">production<\/span><\/td>/);
});
