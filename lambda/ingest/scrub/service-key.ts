import { marker, type ScrubRule } from './rule';

/**
 * This service's own credentials: secret keys (`dfsk_`), publishable keys
 * (`dfpk_`, public by design, yet nothing a report needs to keep) and webhook
 * signing secrets (`whsec_`). Matched from the prefix to the end of the key
 * alphabet, whatever the length, so a cut key goes too.
 */
const SERVICE_KEY = /(?<![A-Za-z0-9])(?:dfsk|dfpk|whsec)_[A-Za-z0-9_+/=-]{4,}/g;

export const serviceKeyRule: ScrubRule = {
  name: 'service-key',
  apply: (text, replaced) =>
    /dfsk_|dfpk_|whsec_/.test(text)
      ? text.replace(SERVICE_KEY, () => {
          replaced();
          return marker('service-key');
        })
      : text,
};
