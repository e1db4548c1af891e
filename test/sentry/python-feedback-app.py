# A customer's Python backend using Debian's unmodified python3-sentry-sdk (1.9.10 here), pointed at this service by
# its DSN (SENTRY_DSN): it captures one error, then sends the user's report on it as a legacy `user_report` item.
# That version has no capture_user_feedback, so the report goes as its own envelope through the SDK's own transport
# (sentry_sdk.envelope: what the later SDKs' capture_user_feedback sends). test/sentry/sentry-python-feedback.test.ts.
import os
import sentry_sdk
from sentry_sdk.envelope import Envelope, Item, PayloadRef

sentry_sdk.init(dsn=os.environ["SENTRY_DSN"], release="orders@3.2.0", environment="test", default_integrations=False)


def pay(order_id):
    raise RuntimeError("payment %d declined by the gateway" % order_id)


try:
    pay(42)
except RuntimeError:
    event_id = sentry_sdk.capture_exception()

envelope = Envelope(headers={"event_id": event_id})
envelope.add_item(
    Item(
        payload=PayloadRef(json={"event_id": event_id, "name": "Grace", "email": os.environ["REPORTER_EMAIL"], "comments": os.environ["COMMENTS"]}),
        type="user_report",
    )
)
sentry_sdk.Hub.current.client.transport.capture_envelope(envelope)
sentry_sdk.flush(10)
