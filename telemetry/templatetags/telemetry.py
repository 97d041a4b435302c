from django import template
from django.utils.html import json_script

from .. import schema
from ..optout import user_opted_out

register = template.Library()


@register.simple_tag(takes_context=True)
def telemetry_config(context):
    """The collector's settings as inline JSON: bucket edges from the schema, and whether the
    signed-in account has turned statistics off (then this page sends nothing)."""
    request = context.get("request")
    config = schema.client_config()
    config["account"] = ("off" if user_opted_out(request.user) else "on") \
        if request is not None and request.user.is_authenticated else None
    config["endpoint"] = "/telemetry/events"
    return json_script(config, "telemetry-config")
