# sign.py: sign a visitor id for Assist on your server (Python 3).
import hashlib
import hmac
import os
import sys


def sign_visitor_id(visitor_id, signing_secret):
    """The `hash` Assist expects next to a visitor id: the lowercase hex
    HMAC-SHA256 of the id string, keyed with the widget's identity signing secret."""
    return hmac.new(
        signing_secret.encode("utf-8"),
        str(visitor_id).encode("utf-8"),
        hashlib.sha256,
    ).hexdigest()


# From a shell: ASSIST_SIGNING_SECRET=… python3 sign.py <visitor-id>
if __name__ == "__main__":
    secret = os.environ.get("ASSIST_SIGNING_SECRET")
    if not secret or len(sys.argv) < 2:
        sys.exit("usage: ASSIST_SIGNING_SECRET=… python3 sign.py <visitor-id>")
    print(sign_visitor_id(sys.argv[1], secret))
