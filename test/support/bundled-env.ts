// The bundled-asset files (jest.bundle.config.js, or the bundled project of jest.npm-test.config.js): startLocalApi()
// serves the synthesized assets that test/support/bundled-project-setup.ts prepared. jest gives each test file its
// own copy of process.env, so files of another project in the same worker are not touched.
import { BUNDLED_API_DIR_VARIABLE } from './bundled-project-setup';

const dir = process.env[BUNDLED_API_DIR_VARIABLE];
if (!dir) throw new Error(`${BUNDLED_API_DIR_VARIABLE} is not set: the bundled-asset files need test/support/bundled-project-setup.ts as their global setup`);
process.env.CONTACTS_API_BUNDLE_DIR = dir;
