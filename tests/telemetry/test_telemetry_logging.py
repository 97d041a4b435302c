"""No client address in log lines or error reports (telemetry/logs.py, LOGGING in settings)."""
import io
import logging

from django.conf import settings
from django.test import RequestFactory
from django.views.debug import ExceptionReporter

from telemetry.logs import ScrubClientAddress, scrub_addresses


def test_it_scrubs_ipv4_and_ipv6_and_leaves_times_and_versions():
    text = "HTTP close for ['203.0.113.9', 51234]; ws from ::ffff:198.51.100.4 and 2001:db8::7 at 12:30:45 v1.2.3"
    scrubbed = scrub_addresses(text)
    assert "203.0.113.9" not in scrubbed and "198.51.100.4" not in scrubbed and "2001:db8::7" not in scrubbed
    assert "12:30:45" in scrubbed and "v1.2.3" in scrubbed and "51234" in scrubbed


def test_the_site_handlers_scrub_every_record_and_drop_the_request():
    handler_filters = settings.LOGGING["handlers"]["console"]["filters"]
    assert handler_filters == ["no_client_address"]
    assert settings.LOGGING["loggers"]["django"]["handlers"] == ["console"]
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(ScrubClientAddress())
    logger = logging.getLogger("test.telemetry.scrub")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        request = RequestFactory().get("/x", REMOTE_ADDR="203.0.113.9")
        logger.warning("Bad Request from %s", "203.0.113.9", extra={"request": request})
        try:
            raise ValueError("peer 203.0.113.9 went away")
        except ValueError:
            logger.exception("failed for %s", ["203.0.113.9", 4000])
    finally:
        logger.removeHandler(handler)
    output = stream.getvalue()
    assert "203.0.113.9" not in output
    assert output.count("[address]") >= 3


def test_the_django_logger_has_no_mail_handler():
    handlers = logging.getLogger("django").handlers
    assert handlers and not any(type(h).__name__ == "AdminEmailHandler" for h in handlers)
    assert not any(type(h).__name__ == "AdminEmailHandler" for h in logging.getLogger("django.request").handlers)


def _addresses():
    # Built from parts: the report quotes source lines and local variables, which must not match.
    return ".".join(["203", "0", "113", "9"]), ".".join(["198", "51", "100", "4"])


def _request_from_behind_a_proxy():
    client, proxy = _addresses()
    return RequestFactory().get("/boom", REMOTE_ADDR=client, HTTP_X_FORWARDED_FOR=proxy)


def test_error_reports_leave_out_address_headers():
    request = _request_from_behind_a_proxy()
    try:
        raise RuntimeError("boom")
    except RuntimeError as exc:
        reporter = ExceptionReporter(request, type(exc), exc, exc.__traceback__)
        html, text = reporter.get_traceback_html(), reporter.get_traceback_text()
    for address in _addresses():
        assert address in str(request.META.values())
        assert address not in html and address not in text
    assert "boom" in text and "REMOTE_ADDR" not in text
