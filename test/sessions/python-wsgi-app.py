# A customer's Python web app (WSGI) with Debian's unmodified python3-sentry-sdk, pointed at this service by its DSN
# (SENTRY_DSN): three requests, the last raising in the handler. The SDK's WSGI middleware tracks one session per
# request and sends them as `sessions` aggregates (request mode) to the envelope endpoint; the error to /store/.
import os
import sentry_sdk
from sentry_sdk.integrations.wsgi import SentryWsgiMiddleware
from wsgiref.util import setup_testing_defaults

sentry_sdk.init(dsn=os.environ["SENTRY_DSN"], release=os.environ["RELEASE"], environment="production")


def app(environ, start_response):
    if environ["PATH_INFO"] == "/boom":
        raise ValueError("boom in the handler")
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"ok"]


middleware = SentryWsgiMiddleware(app)
for path in ["/", "/orders", "/boom"]:
    environ = {}
    setup_testing_defaults(environ)
    environ["PATH_INFO"] = path
    try:
        list(middleware(environ, lambda *args: None))
    except ValueError:
        pass
sentry_sdk.Hub.current.client.close(10)
