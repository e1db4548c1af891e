// A customer's Node HTTP server with the unmodified official @sentry/node (request mode: one session per incoming
// request, sent as `sessions` aggregates), pointed at this service by SENTRY_DSN: four requests, one capturing an
// error (an errored session), then it closes the SDK, which flushes the aggregates.
const http = require('node:http');
const Sentry = require('@sentry/node');

Sentry.init({ dsn: process.env.SENTRY_DSN, release: process.env.RELEASE, environment: 'production', tracesSampleRate: 0 });

const app = http.createServer((request, response) => {
  if (request.url === '/fail') {
    Sentry.captureException(new Error('payment provider timed out'));
    response.statusCode = 502;
    response.end('failed');
    return;
  }
  response.end('ok');
});

app.listen(0, '127.0.0.1', async () => {
  const { port } = app.address();
  for (const path of ['/', '/a', '/b', '/fail']) await fetch(`http://127.0.0.1:${port}${path}`).then((answer) => answer.text());
  app.close();
  await Sentry.close(10_000);
});
