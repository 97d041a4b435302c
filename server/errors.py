"""A busy database is answered 503, not 500: every PostgreSQL connection of the process's pool
(config/env.py, DB_POOL_MAX) stayed lent for DB_POOL_TIMEOUT, as under a burst of slow requests.
The client is asked to come back, rather than told the server is broken."""
import sys

from django.db import OperationalError
from django.views.defaults import server_error as django_server_error
from psycopg_pool import PoolTimeout

# Seconds a client is asked to wait after a 503: about one DB_POOL_TIMEOUT's worth of queue.
RETRY_AFTER = 5


def _pool_exhausted(error: BaseException | None) -> bool:
    return isinstance(error, OperationalError) and isinstance(error.__cause__, PoolTimeout)


def _busy(request):
    response = django_server_error(request)
    response.status_code = 503
    response["Retry-After"] = str(RETRY_AFTER)
    return response


class BusyDatabaseMiddleware:
    """A view that found no pooled connection (with DEBUG on too)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        return _busy(request) if _pool_exhausted(exception) else None


def server_error(request):
    """Django's ``handler500`` (DEBUG off): the same 503 where the connection was wanted outside
    a view (a middleware saving the session), else Django's own 500."""
    if _pool_exhausted(sys.exc_info()[1]):
        return _busy(request)
    return django_server_error(request)
