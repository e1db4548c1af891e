import { OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { join } from 'node:path';

export const PROJECT_ROOT = join(__dirname, '..');
export const LAMBDA_RUNTIME = Runtime.NODEJS_22_X;
export const LAMBDA_ARCHITECTURE = Architecture.ARM_64;

/**
 * esbuild on this machine (no Docker): one minified ESM file per function,
 * the AWS SDK bundled in (pinned, and tree-shaken via its ESM builds), no
 * source maps to load at cold start, and the SDK's credential chain reduced
 * to the environment credentials Lambda provides.
 */
export const BUNDLING: BundlingOptions = {
  minify: true,
  sourceMap: false,
  target: 'node22',
  format: OutputFormat.ESM,
  mainFields: ['module', 'main'],
  bundleAwsSDK: true,
  externalModules: [],
  forceDockerBundling: false,
  // Some CommonJS dependencies call require() for Node built-ins.
  banner: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);",
  esbuildArgs: {
    // See lambda/sdk/lambda-credentials.ts: environment credentials only, as on Lambda.
    '--alias:@aws-sdk/credential-provider-node': './lambda/sdk/lambda-credentials.ts',
  },
};
