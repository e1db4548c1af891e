import { createHash, randomUUID } from 'node:crypto';
import { createS3Client, s3ConfigFromEnv } from '../../lambda/infrastructure/store/source-maps/s3-client';
import { S3SourceMaps } from '../../lambda/infrastructure/store/source-maps/s3-source-maps';
import type { MapRef } from '../../lambda/ingest/sourcemaps/ports';

/** The run's source maps store (the embedded S3 store global-setup started), through the service's own adapter. */
export function testMapStore(): S3SourceMaps {
  const config = s3ConfigFromEnv();
  if (!config) throw new Error('SOURCE_MAPS_BUCKET is not set: run the tests through jest (global-setup starts the S3 store)');
  return new S3SourceMaps(createS3Client(config), config.bucket);
}

/** A small valid map for `debugId` (or none), `file` as given. */
export function smallMap(options: { debugId?: string; file?: string; padTo?: number } = {}): string {
  const map: Record<string, unknown> = {
    version: 3,
    file: options.file ?? 'app.js',
    sources: ['../../src/cart.js'],
    sourcesContent: ['export function total(cart) { return cart.items.length; }\n'],
    names: ['total', 'cart'],
    mappings: 'AAAA,SAASA,MAAMC',
  };
  if (options.debugId) {
    map.debugId = options.debugId;
    map.debug_id = options.debugId;
  }
  let text = JSON.stringify(map);
  // Pads sourcesContent to reach a size: a big map as bundlers write them (the content is data, never read).
  if (options.padTo && options.padTo > text.length) {
    (map.sourcesContent as string[])[0] += '/'.repeat(options.padTo - text.length);
    text = JSON.stringify(map);
  }
  return text;
}

export const newDebugId = (): string => randomUUID();
export const sha256Hex = (bytes: string | Buffer): string => createHash('sha256').update(bytes).digest('hex');

export interface Answer {
  status: number;
  json: any;
}

async function post(baseUrl: string, key: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(new URL(path, baseUrl), {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

/** The wire form of a ref. */
export const wireRef = (ref: MapRef) => (ref.kind === 'debugId' ? { debugId: ref.debugId } : { release: ref.release, path: ref.path });

/** The three steps of an upload over HTTP, as the CLI makes them: each answer, for the test to hold. */
export async function uploadOverHttp(baseUrl: string, key: string, ref: MapRef, text: string | Buffer) {
  const sha256 = sha256Hex(text);
  const announced = await post(baseUrl, key, '/sourcemaps/v1/uploads', { ref: wireRef(ref), sha256, bytes: Buffer.byteLength(text) });
  if (announced.status !== 201) return { announced };
  const { upload, complete } = announced.json as { upload: { url: string; headers: Record<string, string> }; complete: string };
  const put = await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: text });
  const completed = await post(baseUrl, key, complete, { ref: wireRef(ref), sha256 });
  return { announced, put: put.status, completed };
}
