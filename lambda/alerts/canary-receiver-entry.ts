import { createCanaryReceiver } from './canary-receiver';

/** The canary receiver's entry point (lib/canary-receiver.ts): its function URL's only handler. */
export const handler = createCanaryReceiver(process.env.CANARY_WEBHOOK_SECRET);
