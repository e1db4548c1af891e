import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { SetupError } from './setup-error';

/**
 * True when the port cannot be bound: something listens on it, on any
 * interface (IPv4 or IPv6), as a server of ours would need.
 */
export function isPortInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'EADDRINUSE' || error.code === 'EACCES'));
    probe.listen(port, () => probe.close(() => resolve(false)));
  });
}

/**
 * The low end of the range the kernel hands out to outgoing connections (Linux's ip_local_port_range; 32768 by
 * default). A port chosen inside it can be taken by any client socket on the machine (a test's fetch, a JVM's
 * connection) between the choice and the bind: a server started seconds later then finds it busy. CI saw exactly
 * that ("port 37025 is already in use" while npm start --bundle was starting).
 */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 1024 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

const LOWEST = 10_000;
let next = -1;

/** Whether nothing listens on the port now (it can be bound). */
const canBind = async (port: number): Promise<boolean> => !(await isPortInUse(port));

/** Any port the kernel picks (inside the outgoing range): the fallback when the range below it is full. */
function kernelPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * A TCP port that was free a moment ago, below the outgoing connections' range, so that only another listener
 * can take it before it is bound. Each process walks the range from its own starting point (from its pid), so
 * two processes choosing at once rarely meet; a port found busy is skipped.
 */
export async function freePort(): Promise<number> {
  const high = ephemeralLow();
  const span = high - LOWEST;
  if (span < 100) return kernelPort();
  if (next < 0) next = (process.pid * 7_919) % span;
  for (let tries = 0; tries < 200; tries++) {
    const port = LOWEST + next;
    next = (next + 1) % span;
    if (await canBind(port)) return port;
  }
  return kernelPort();
}

/** Reads a port number from the environment, with a one-line error when it is not one. */
export function portFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new SetupError(`${name}=${raw} is not a port number (1-65535)`);
  }
  return port;
}
