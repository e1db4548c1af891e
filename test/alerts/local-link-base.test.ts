import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where an alert's link points on one machine (local/harness/control-rooms.ts):
 * the control room that runs now, on whatever port, read when each alert is
 * made. The registry folder is this file's own (CONTACTS_SERVERS_DIR, read
 * when the module loads). npm start's alerts follow it end to end in
 * test/alerts/npm-start.test.ts.
 */
type Registry = typeof import('../../local/harness/control-rooms');

let dir: string;
let registry: Registry;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'control-rooms-'));
  const saved = process.env.CONTACTS_SERVERS_DIR;
  process.env.CONTACTS_SERVERS_DIR = dir;
  jest.isolateModules(() => {
    registry = jest.requireActual<Registry>('../../local/harness/control-rooms');
  });
  if (saved === undefined) delete process.env.CONTACTS_SERVERS_DIR;
  else process.env.CONTACTS_SERVERS_DIR = saved;
});
afterEach(() => {
  registry.unregisterControlRoom();
  rmSync(dir, { recursive: true, force: true });
});

test('with no control room running, links point where npm run control-room starts by default', () => {
  expect(registry.localLinkBase({})).toBe('http://127.0.0.1:4000');
});

test('a running control room is where links point, and once it stops, the default again', () => {
  registry.registerControlRoom('http://127.0.0.1:4100');
  expect(registry.localLinkBase({})).toBe('http://127.0.0.1:4100');
  registry.unregisterControlRoom();
  expect(registry.localLinkBase({})).toBe('http://127.0.0.1:4000');
});

test('ALERT_LINK_BASE, when set, wins over the running control room', () => {
  registry.registerControlRoom('http://127.0.0.1:4100');
  expect(registry.localLinkBase({ ALERT_LINK_BASE: 'https://control.example.com' })).toBe('https://control.example.com');
});

test('a control room that died without unregistering (kill -9) is not linked to, and its entry goes', () => {
  const gone = spawnSync(process.execPath, ['-e', 'process.pid'], { stdio: 'ignore' }).pid as number;
  writeFileSync(join(dir, `control-room-${gone}.json`), JSON.stringify({ pid: gone, url: 'http://127.0.0.1:4200' }));
  expect(registry.runningControlRoom()).toBeUndefined();
  expect(existsSync(join(dir, `control-room-${gone}.json`))).toBe(false);
});

test("the control room registry leaves npm start's own entries alone", () => {
  writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify({ pid: process.pid, api: 'http://localhost:3000' }));
  registry.registerControlRoom('http://127.0.0.1:4100');
  expect(registry.runningControlRoom()).toBe('http://127.0.0.1:4100');
  expect(readdirSync(dir).sort()).toEqual([`${process.pid}.json`, `control-room-${process.pid}.json`].sort());
});
