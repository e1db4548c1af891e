import { sourceMapsContainerDependencies } from './sourcemaps-wiring';
import { createSourceMapsHandler } from './routes';

/** The source maps Lambda's entry point (API Gateway REST, Lambda proxy integration on /sourcemaps/v1/*), wired once per container. */
export const handler = createSourceMapsHandler(sourceMapsContainerDependencies());
