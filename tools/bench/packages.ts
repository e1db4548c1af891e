/** Names the code a file belongs to, for the bundle breakdown and the profile. */

/** The npm package of a path inside node_modules (`@smithy/core`, `zod`), or its first two folders. */
export function packageOf(path: string): string {
  const at = path.lastIndexOf('node_modules/');
  if (at === -1) return path.split('/').slice(0, 2).join('/');
  const parts = path.slice(at + 'node_modules/'.length).split('/');
  return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? path);
}

// mnemonist and obliterator: the LRU cache of the DynamoDB client's endpoint discovery.
const SDK_DEPENDENCIES = ['tslib', 'fast-xml-parser', 'strnum', 'bowser', 'uuid', 'mnemonist', 'obliterator'];

/** Packages and folders grouped into families worth one line each. */
export function familyOf(name: string): string {
  if (name.startsWith('@aws-sdk/') || name.startsWith('@smithy/') || name.startsWith('@aws-crypto/') || SDK_DEPENDENCIES.includes(name)) {
    return 'AWS SDK v3 (@aws-sdk, @smithy and their dependencies)';
  }
  if (name.startsWith('@middy/')) return 'Middy';
  if (name === 'zod') return 'zod (zod/mini)';
  if (name.startsWith('lambda/')) return 'our code (lambda/)';
  if (name.startsWith('local/')) return 'local HTTP adapter (local/; API Gateway on AWS)';
  if (name.startsWith('tools/bench')) return 'benchmark harness (request and byte counters)';
  return name;
}
