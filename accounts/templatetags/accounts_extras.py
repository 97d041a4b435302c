from django import template

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
    """0.4567 → "46%"; no games → "–"."""
    return "–" if rate is None else f"{round(rate * 100)}%"
