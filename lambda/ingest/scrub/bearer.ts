import { looksLikeCredential, marker, type ScrubRule } from './rule';

/**
 * The credential after an HTTP authorization scheme: `Bearer <token>` and
 * `Basic <base64 of user:password>`, any case, as an `Authorization` header
 * shows up in an error message. The scheme word stays; the credential goes
 * when it looks like one (rule.ts), so "Bearer authentication failed" stays.
 */
const BEARER = /\b(bearer|basic)(\s+)([A-Za-z0-9._~+/=-]{8,})/gi;

export const bearerRule: ScrubRule = {
  name: 'bearer',
  apply: (text, replaced) =>
    /bearer|basic/i.test(text)
      ? text.replace(BEARER, (whole, scheme: string, space: string, credential: string) => {
          if (!looksLikeCredential(credential)) return whole;
          replaced();
          return `${scheme}${space}${marker('bearer')}`;
        })
      : text,
};
