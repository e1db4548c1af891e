/**
 * The factory reserved for the pre-traffic check of every deployment
 * (docs/deploying.md#the-pre-traffic-check): the contacts function writes
 * and reads back one contact of it before any traffic reaches a new version,
 * the control-room function lists its contacts. No key is ever issued for
 * it (the keys command and the control room refuse), so no customer's data is in it and
 * no request from outside reaches it.
 */
export const CANARY_FACTORY_ID = 'fac_canary';

/** The one contact of the canary factory. `.invalid` is reserved (RFC 2606): no mail can ever go there. */
export const CANARY_EMAIL = 'pre-traffic-check@canary.invalid';

export const isCanaryFactory = (factoryId: string): boolean => factoryId === CANARY_FACTORY_ID;

/** Why no key is issued for the canary factory: the keys command's, the control room's and the store's refusal. */
export const CANARY_KEY_REFUSED = `${CANARY_FACTORY_ID} is reserved for the pre-traffic check of deployments (docs/deploying.md#the-pre-traffic-check): no key is issued for it`;
