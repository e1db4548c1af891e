import { marker, type ScrubRule } from './rule';

/**
 * The password of a URL's user information: `https://ada:hunter2@host/`
 * becomes `https://ada:[Filtered:url-password]@host/`. The user name stays
 * (the email rule takes it when it is an address).
 */
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*:)([^\s/?#@]+)@/gi;

export const urlPasswordRule: ScrubRule = {
  name: 'url-password',
  apply: (text, replaced) =>
    text.includes('://')
      ? text.replace(URL_PASSWORD, (_whole, head: string) => {
          replaced();
          return `${head}${marker('url-password')}@`;
        })
      : text,
};
