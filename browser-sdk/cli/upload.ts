/**
 * Uploads a build's source maps to the service's source maps API
 * (docs/source-maps.md#the-upload-api) with a factory's secret key: for each
 * map, announce it (ref, sha256, size), PUT its bytes to the URL answered
 * (a map already stored is skipped), then complete. Node built-ins and
 * fetch only: this folder ships in the SDK package's bin.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { builtFiles, locateMap } from './built-files';
import { debugIdIn } from './debug-ids';

export type WireRef = { debugId: string } | { release: string; path: string };

export interface UploadOptions {
  /** The service's base URL (the stack's ApiUrl; locally http://localhost:3000). */
  url: string;
  /** A secret key of the factory (dfsk_…). */
  key: string;
  /** For scripts without a debug id: the release their frames carry. */
  release?: string;
  /** The URL path the folder is served at, as frames name it: `~/` (the site's root) unless given. */
  urlPrefix?: string;
  /** Maps uploaded at once. */
  concurrency?: number;
  /** How long to wait before a retry (tests make it instant). */
  sleep?: (ms: number) => Promise<void>;
}

export interface MapOutcome {
  file: string;
  map: string;
  ref: WireRef;
  outcome: 'uploaded' | 'already-stored' | 'refused';
  reason?: string;
}

export interface UploadSummary {
  uploaded: number;
  alreadyStored: number;
  refused: MapOutcome[];
  /** Scripts with a map that could not be named: no debug id and no --release. */
  unnamed: string[];
  maps: MapOutcome[];
}

/** A failure worth telling the user as it is (a refused key, an unreachable service): the whole upload stops. */
export class UploadError extends Error {}

const ATTEMPTS = 5;

function apiUrl(base: string, path: string): string {
  return new URL(path, base.endsWith('/') ? base : `${base}/`).href;
}

/** One request, retried on 429 (after its Retry-After), 502-504 and network failures. */
async function call(url: string, init: RequestInit, sleep: (ms: number) => Promise<void>): Promise<{ status: number; body: Record<string, unknown> }> {
  for (let attempt = 1; ; attempt++) {
    let response: Response | undefined;
    try {
      response = await fetch(url, init);
    } catch (error) {
      if (attempt >= ATTEMPTS) throw new UploadError(`cannot reach ${new URL(url).origin}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (response && !(response.status === 429 || (response.status >= 502 && response.status <= 504))) {
      const text = await response.text();
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        body = { error: text.slice(0, 300) };
      }
      return { status: response.status, body };
    }
    if (response && attempt >= ATTEMPTS) return { status: response.status, body: { error: `still ${response.status} after ${ATTEMPTS} attempts` } };
    const retryAfter = Number(response?.headers.get('retry-after'));
    await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 250 * 2 ** attempt);
  }
}

const errorOf = (body: Record<string, unknown>) => (typeof body.error === 'string' ? body.error : JSON.stringify(body).slice(0, 300));

/** Uploads one map; throws UploadError for what stops every upload (key refused, service unreachable). */
async function uploadOne(
  options: UploadOptions,
  ref: WireRef,
  bytes: Buffer,
  sleep: (ms: number) => Promise<void>,
): Promise<{ outcome: MapOutcome['outcome']; reason?: string }> {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const headers = { Authorization: `Bearer ${options.key}`, 'Content-Type': 'application/json' };
  const announced = await call(
    apiUrl(options.url, 'sourcemaps/v1/uploads'),
    { method: 'POST', headers, body: JSON.stringify({ ref, sha256, bytes: bytes.byteLength }) },
    sleep,
  );
  if (announced.status === 401 || announced.status === 403)
    throw new UploadError(`the service refused the key (${announced.status}): ${errorOf(announced.body)}`);
  if (announced.status === 200) return { outcome: 'already-stored' };
  if (announced.status !== 201) return { outcome: 'refused', reason: `${announced.status}: ${errorOf(announced.body)}` };
  const { uploadId, upload } = announced.body as { uploadId: string; upload: { url: string; headers: Record<string, string> } };
  let put: Response;
  try {
    put = await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: bytes });
  } catch (error) {
    throw new UploadError(`cannot reach the storage URL: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!put.ok) return { outcome: 'refused', reason: `the storage refused the PUT (${put.status}): ${(await put.text()).slice(0, 300)}` };
  const completed = await call(
    apiUrl(options.url, `sourcemaps/v1/uploads/${uploadId}/complete`),
    { method: 'POST', headers, body: JSON.stringify({ ref, sha256 }) },
    sleep,
  );
  if (completed.status === 200 || completed.status === 201) return { outcome: 'uploaded' };
  return { outcome: 'refused', reason: `${completed.status}: ${errorOf(completed.body)}` };
}

/** Every map of the build under `dir`, each under its script's debug id, or (without one) under the release and the script's URL path. */
export async function uploadMaps(dir: string, options: UploadOptions): Promise<UploadSummary> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms)));
  const prefix = options.urlPrefix ?? '~/';
  const work: { file: string; map: string; ref: WireRef }[] = [];
  const unnamed: string[] = [];
  for (const built of builtFiles(dir)) {
    const text = readFileSync(built.file, 'utf8');
    const { map } = locateMap(built.file, text);
    if (!map) continue;
    const debugId = debugIdIn(text);
    if (debugId) work.push({ file: built.path, map, ref: { debugId } });
    else if (options.release)
      work.push({ file: built.path, map, ref: { release: options.release, path: `${prefix.endsWith('/') ? prefix : `${prefix}/`}${built.path}` } });
    else unnamed.push(built.path);
  }
  const maps: MapOutcome[] = [];
  let next = 0;
  const worker = async () => {
    for (let item = work[next++]; item !== undefined; item = work[next++]) {
      const { outcome, reason } = await uploadOne(options, item.ref, readFileSync(item.map), sleep);
      maps.push({ ...item, outcome, ...(reason === undefined ? {} : { reason }) });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  maps.sort((a, b) => a.file.localeCompare(b.file));
  return {
    uploaded: maps.filter((m) => m.outcome === 'uploaded').length,
    alreadyStored: maps.filter((m) => m.outcome === 'already-stored').length,
    refused: maps.filter((m) => m.outcome === 'refused'),
    unnamed,
    maps,
  };
}
