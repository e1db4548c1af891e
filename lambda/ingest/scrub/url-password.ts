import { marker, type ScrubRule } from './rule';

/**
 * The password of a URL's user information: `https://ada:hunter2@host/`
 * becomes `https://ada:[Filtered:url-password]@host/`. The user name stays
 * (the email rule takes it when it is an address).
 */
// From "://" on: the scheme adds nothing to the match, and looking for it from every word is slow on long stacks.
const URL_PASSWORD = /(:\/\/[^\s/?#@:]*:)([^\s/?#@]+)@/g;

export const urlPasswordRule: ScrubRule = {
  name: 'url-password',
  apply: (text, replaced) =>
    text.includes('://')
      ? text.replace(URL_PASSWORD, (whole, head: string) => {
          // A marker an earlier rule left there (`https://[Filtered:token]@github.com`) is not a user and a password.
          if (whole.includes('[Filtered:')) return whole;
          replaced();
          return `${head}${marker('url-password')}@`;
        })
      : text,
};
