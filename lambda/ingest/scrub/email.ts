import { marker, type ScrubRule } from './rule';

/**
 * E-mail addresses in free text, plain or URL-encoded (`ada%40example.com`
 * in a query string). The `reporter` field is where a person's identity
 * belongs, and is not scrubbed. A stack frame that merely looks like one
 * (Firefox's `fn@app.js:1:2`) stays: its "domain" ends in a script's
 * extension (`.js`, `.mjs`, `.html`…).
 */
const EMAIL =
  /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]*[A-Za-z0-9_+-](?:@|%40)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+(?!(?:m?js|cjs|jsx|tsx?|html?|css|json|map|vue|svelte|wasm|php)\b)[A-Za-z]{2,24}\b(?![.-][A-Za-z0-9])/g;

export const emailRule: ScrubRule = {
  name: 'email',
  apply: (text, replaced) =>
    text.includes('@') || text.includes('%40')
      ? text.replace(EMAIL, () => {
          replaced();
          return marker('email');
        })
      : text,
};
