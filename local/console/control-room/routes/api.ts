import { route, type Route } from '../context';
import { sendJson } from '../respond';

/** The most a request body may hold: operations take a few fields. */
export const BODY_LIMIT = 64 * 1024;

/**
 * The one state-changing endpoint: a control-room operation as JSON, run
 * as `control` runs it (in this process, or signed to the function URL), its
 * status and answer passed back unchanged. The server checked the session,
 * the Origin and the CSRF token before this runs.
 */
export const apiRoutes: Route[] = [
  route('POST', '/api/operation', async (context) => {
    const { req, res } = context;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > BODY_LIMIT) {
        sendJson(res, 413, { error: `the body is larger than ${BODY_LIMIT} bytes` });
        return;
      }
      chunks.push(chunk);
    }
    let request: unknown;
    try {
      request = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      sendJson(res, 400, { error: 'the body is not valid JSON' });
      return;
    }
    const reply = await context.run(request);
    sendJson(res, reply.status, reply.body);
  }),
];
