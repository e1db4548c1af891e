import bundledProjectSetup from './bundled-project-setup';
import globalSetup from './global-setup';

/**
 * For jest.bundle.config.js run on its own (`npm run test:bundle`, the Node 22 run): the run's DynamoDB Local, S3
 * store and tally as usual, then the bundled API's folder (test/support/bundled-project-setup.ts).
 */
export default async function bundleGlobalSetup(): Promise<void> {
  await globalSetup();
  await bundledProjectSetup();
}
