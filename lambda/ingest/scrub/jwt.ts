import { marker, type ScrubRule } from './rule';

/**
 * JSON Web Tokens: a base64url header that starts with `eyJ` (`{"`), a
 * payload, and a signature (empty for `alg: none`). Anywhere: after
 * "Bearer", in a URL, in a cookie. Two parts are enough (a token cut after
 * its payload still carries who it was for).
 */
// Each part's length is bounded (far above any real token's): a run of token characters with no dot is then given
// back a bounded number of times, not once per character of a megabyte.
const JWT = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,8192}\.[A-Za-z0-9_-]{4,32768}(?:\.[A-Za-z0-9_-]{0,8192})?/g;

export const jwtRule: ScrubRule = {
  name: 'jwt',
  apply: (text, replaced) =>
    text.includes('eyJ')
      ? text.replace(JWT, () => {
          replaced();
          return marker('jwt');
        })
      : text,
};
