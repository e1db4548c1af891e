import { transformSync } from 'esbuild';

/**
 * A two-function source minified by esbuild with its map, in this process:
 * for the source-map modules' own tests, which need a real map and the
 * generated line and column of a place in the source.
 */
export const TINY_SOURCE = [
  'export function cartTotal(cart) {',
  '  return cart.items.reduce((sum, item) => sum + item.price, 0);',
  '}',
  'export function checkout(cart) {',
  '  return cartTotal(cart);',
  '}',
  '',
].join('\n');

export interface TinyBuild {
  code: string;
  /** The map's JSON text, its source named `src/cart.js`, with the source's text (sourcesContent). */
  map: string;
  /** The 1-based line and column (as browsers write them) of the first `token` in the minified code. */
  at(token: string): { line: number; column: number };
}

export function tinyBuild(options: { sourcesContent?: boolean } = {}): TinyBuild {
  const { code, map } = transformSync(TINY_SOURCE, {
    minify: true,
    sourcemap: 'external',
    sourcefile: 'src/cart.js',
    format: 'iife',
    globalName: 'shop',
    sourcesContent: options.sourcesContent ?? true,
  });
  return {
    code,
    map,
    at(token) {
      const lines = code.split('\n');
      const line = lines.findIndex((text) => text.includes(token));
      if (line < 0) throw new Error(`"${token}" is not in the minified code`);
      return { line: line + 1, column: (lines[line] as string).indexOf(token) + 1 };
    },
  };
}
