import { answeringSelfCheck, checkCanaryContact } from './canary-check';
import { containerDependencies } from './contacts-wiring';
import { createContactsHandler } from './routes';

const dependencies = containerDependencies();

/**
 * The contacts Lambda's entry point (API Gateway REST, Lambda proxy integration), wired once per container;
 * the pre-traffic hook's self-check event is answered beside the API (docs/deploying.md#the-pre-traffic-check).
 */
export const handler = answeringSelfCheck(createContactsHandler(dependencies), () => checkCanaryContact(dependencies.contacts));
