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

/** A TCP port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
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
