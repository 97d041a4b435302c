from django import template
from django.utils.translation import gettext as _

register = template.Library()


@register.filter
def duration(seconds) -> str:
    """312.5 → "5:12"; an hour or more → "1:05:12"."""
    if seconds is None:
        return ""
    total = int(round(seconds))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@register.filter
def percent(rate) -> str:
    """0.4567 → "46%" in the page's language; no games → "–"."""
    if rate is None:
        return "–"
    # "46%", "46 %" (German and Spanish put a space before the sign).
    return _("%(percent)d%%") % {"percent": round(rate * 100)}
