import { ingestContainerDependencies } from './ingest-wiring';
import { createIngestHandler } from './routes';

/** The ingest Lambda's entry point (API Gateway REST, Lambda proxy integration on /ingest/v1/*), wired once per container. */
export const handler = createIngestHandler(ingestContainerDependencies());
