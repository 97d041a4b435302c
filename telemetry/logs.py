"""No client address in any log line or error report (SPEC 6.2).

``ScrubClientAddress`` is a logging filter on the site's handlers: it drops the request object
Django attaches to request-log records (so no handler can read its META) and replaces anything
shaped like an IP address in the message with "[address]". Daphne's own debug lines name the
client ("HTTP close for ['203.0.113.9', 51234]"), so this matters at LOG_LEVEL=DEBUG.

``NoAddressReporterFilter`` is Django's exception-reporter filter without the address headers,
for any error report (the DEBUG page or a mail handler someone adds later).
"""
from __future__ import annotations

import ipaddress
import logging
import re

from django.views.debug import SafeExceptionReporterFilter

ADDRESS_META = ("REMOTE_ADDR", "HTTP_X_FORWARDED_FOR", "HTTP_X_REAL_IP", "HTTP_FORWARDED",
                "HTTP_CF_CONNECTING_IP", "HTTP_TRUE_CLIENT_IP")
_CANDIDATE = re.compile(r"(?<![\w.:])(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}"
                        r"(?:\d{1,3}(?:\.\d{1,3}){3})?)(?![\w.:])")


def scrub_addresses(text: str) -> str:
    def replace(match):
        candidate = match.group(0)
        try:
            ipaddress.ip_address(candidate)
        except ValueError:
            return candidate  # a time of day, a version number…
        return "[address]"
    return _CANDIDATE.sub(replace, text)


class ScrubClientAddress(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if hasattr(record, "request"):
            record.request = None
        message = record.getMessage()
        scrubbed = scrub_addresses(message)
        if scrubbed != message:
            record.msg, record.args = scrubbed, ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = scrub_addresses(record.exc_text)
        return True


class NoAddressReporterFilter(SafeExceptionReporterFilter):
    def get_safe_request_meta(self, request):
        meta = super().get_safe_request_meta(request)
        return {key: value for key, value in meta.items() if key not in ADDRESS_META}
