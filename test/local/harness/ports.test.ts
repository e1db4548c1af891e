import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { freePort, isPortInUse } from '../../../local/harness/ports';

const ephemeralLow = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);

describe('freePort', () => {
  test('chooses a port below the range the kernel gives outgoing connections, so no client socket can take it', async () => {
    for (let i = 0; i < 20; i++) {
      const port = await freePort();
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(ephemeralLow);
    }
  });

  test('skips a port something already listens on', async () => {
    // The walk is sequential within a process: hold the ports right after the last one handed out.
    const last = await freePort();
    const held = [];
    for (let port = last + 1; port <= last + 5; port++) {
      const holder = createServer();
      await new Promise<void>((resolve, reject) => holder.once('error', reject).listen(port, resolve));
      held.push(holder);
    }
    try {
      for (const holder of held) {
        const address = holder.address();
        expect(typeof address === 'object' && address ? await isPortInUse(address.port) : false).toBe(true);
      }
      const port = await freePort();
      expect(port === last + 1 || port === last + 2 || port === last + 3 || port === last + 4 || port === last + 5).toBe(false);
      expect(await isPortInUse(port)).toBe(false);
    } finally {
      await Promise.all(held.map((holder) => new Promise<void>((resolve) => holder.close(() => resolve()))));
    }
  });
});
