from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _

from . import dashboards, schema
from .models import Event


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    """The event list is the dashboards (docs/telemetry.md, "Operators"): operators see
    aggregates, not rows, and nobody edits statistics by hand."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def changelist_view(self, request, extra_context=None):
        if not self.has_view_permission(request):
            raise PermissionDenied
        status, error = 200, ""
        try:
            filters = dashboards.Filters.from_query(request.GET)
        except dashboards.FilterError as exc:
            status, error, filters = 400, str(exc), dashboards.Filters()
        context = {
            **self.admin_site.each_context(request),
            "title": _("Anonymous statistics"),
            "opts": self.model._meta,
            "filters": filters,
            "error": error,
            "day_choices": dashboards.DAY_CHOICES,
            "games": schema.GAMES,
            "data": dashboards.build(filters),
        }
        return TemplateResponse(request, "admin/telemetry/dashboard.html", context, status=status)
