import { sha256Hex } from '../kernel/hash';
import type { FeatureRequestInput } from './payloads';
import type { ReportStore, StoredFeatureRequest } from './ports';
import type { RequestReceipt } from './receive-events';

/** What the API answers about a feature request: never the reporter or where it came from. */
export interface FeatureRequestView {
  id: string;
  title: string;
  createdAt: string;
}

/** `fr_` + the first 16 hex of sha256("<factoryId>:<requestId>"): the same request always has the same id. */
export function featureRequestId(factoryId: string, requestId: string): string {
  return `fr_${sha256Hex(`${factoryId}:${requestId}`).slice(0, 16)}`;
}

/**
 * `POST /ingest/v1/feature-requests` (docs/ingest-api.md): a request
 * read by readFeatureRequest (payloads.ts) is stored with one
 * conditional write keyed by factory and requestId. The
 * first write creates it (`created: true`); the same requestId again
 * answers the request as first stored (`created: false`).
 */
export async function submitFeatureRequest(
  store: ReportStore,
  input: FeatureRequestInput,
  receipt: RequestReceipt,
): Promise<{ created: boolean; featureRequest: FeatureRequestView }> {
  const { requestToken, ...fields } = receipt;
  const request: StoredFeatureRequest = {
    ...fields,
    ...input,
    id: featureRequestId(receipt.factoryId, input.requestId),
    createdAt: receipt.receivedAt,
    writeToken: requestToken,
  };
  const { created, stored } = await store.putFeatureRequest(request);
  return { created, featureRequest: { id: stored.id, title: stored.title, createdAt: stored.createdAt } };
}
