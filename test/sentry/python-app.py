# A customer's Python backend using Debian's unmodified python3-sentry-sdk (1.9.10 here), pointed at this service by
# its DSN (SENTRY_DSN). It reports what test/sentry/sentry-python.test.ts counts: 3 x a ValueError raised in
# parse_order (a chained cause each time), 2 x a KeyError raised in find_user, then flushes. The test runs it from two
# install paths (/…/releases/123/app.py, /…/releases/124/app.py), each a release of its own.
import os
import sentry_sdk

sentry_sdk.init(dsn=os.environ["SENTRY_DSN"], release=os.environ.get("RELEASE", "orders@3.1.0"), environment="test", default_integrations=False)


def parse_order(n):
    try:
        int("x%d" % n)
    except ValueError as cause:
        raise ValueError("order %d is malformed" % n) from cause


def find_user(user_id):
    raise KeyError("user-%d" % user_id)


for n in (1, 2, 3):
    try:
        parse_order(n)
    except ValueError:
        with sentry_sdk.push_scope() as scope:
            scope.user = {"id": "7", "email": "grace@example.com", "username": "grace"}
            sentry_sdk.capture_exception()
for user_id in (10, 11):
    try:
        find_user(user_id)
    except KeyError:
        sentry_sdk.capture_exception()
sentry_sdk.flush(10)
