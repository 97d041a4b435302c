"""Small server-rendered SVG charts for the operators' dashboards: no JavaScript, no library.

Every label and number goes through format_html, so nothing in the data can inject markup.
"""
from __future__ import annotations

from django.utils.html import format_html
from django.utils.safestring import mark_safe

ROW = 22
LABEL_WIDTH = 150
BAR_WIDTH = 320
COLOURS = ("#2f6f9f", "#d9822b", "#4b9f5a", "#a33")


def bar_chart(title: str, rows: list[tuple[str, float]], unit: str = "", maximum: float | None = None) -> str:
    """Horizontal bars, one per (label, value)."""
    return grouped_bar_chart(title, [(label, [value]) for label, value in rows], [], unit, maximum)


def grouped_bar_chart(title: str, rows: list[tuple[str, list[float]]], series: list[str],
                      unit: str = "", maximum: float | None = None) -> str:
    """Horizontal bars, one group per label and one bar per series in it."""
    per_group = max((len(values) for _, values in rows), default=1)
    top = max((v for _, values in rows for v in values), default=0) if maximum is None else maximum
    legend_height = ROW if series else 0
    height = legend_height + max(1, len(rows)) * (ROW * per_group + 6) + 4
    width = LABEL_WIDTH + BAR_WIDTH + 80
    parts = _legend(series, LABEL_WIDTH)
    y = legend_height
    for label, values in rows:
        parts.append(format_html('<text x="{}" y="{}" font-size="12" text-anchor="end">{}</text>',
                                 LABEL_WIDTH - 6, y + ROW * per_group / 2 + 4, label))
        for i, value in enumerate(values):
            length = 0 if not top else BAR_WIDTH * value / top
            parts.append(format_html(
                '<rect x="{}" y="{}" width="{}" height="{}" fill="{}"><title>{}: {}{}</title></rect>'
                '<text x="{}" y="{}" font-size="11">{}{}</text>',
                LABEL_WIDTH, y + i * ROW + 2, f"{length:.1f}", ROW - 4, COLOURS[i % len(COLOURS)],
                label, _number(value), unit, LABEL_WIDTH + length + 4, y + i * ROW + ROW - 7,
                _number(value), unit))
        y += ROW * per_group + 6
    if not rows:
        parts.append(format_html('<text x="{}" y="{}" font-size="12">{}</text>', LABEL_WIDTH, y + 15, "—"))
    return _svg(title, width, height, parts)


def daily_chart(title: str, days: list[str], series: list[tuple[str, list[float]]]) -> str:
    """A trend: one line per (name, values), a value per day of ``days`` (oldest first), each
    point titled with its day and value; the first, middle and last days are written below."""
    width, plot_height, left = LABEL_WIDTH + BAR_WIDTH + 80, 120, 40
    plot_width = width - left - 20
    top = max((v for _, values in series for v in values), default=0) or 1
    step = plot_width / max(1, len(days) - 1)
    base = ROW + plot_height

    def point(n: int, value: float) -> tuple[str, str]:
        return f"{left + n * step:.1f}", f"{base - plot_height * value / top:.1f}"

    parts = _legend([name for name, _ in series], left)
    parts.append(format_html('<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#999"/>'
                             '<text x="{}" y="{}" font-size="11" text-anchor="end">{}</text>'
                             '<text x="{}" y="{}" font-size="11" text-anchor="end">0</text>',
                             left, base, left + plot_width, base, left - 4, ROW + 4, _number(top),
                             left - 4, base))
    for i, (name, values) in enumerate(series):
        colour = COLOURS[i % len(COLOURS)]
        points = " ".join(",".join(point(n, value)) for n, value in enumerate(values))
        parts.append(format_html('<polyline points="{}" fill="none" stroke="{}" stroke-width="2"/>', points, colour))
        for n, value in enumerate(values):
            x, y = point(n, value)
            parts.append(format_html('<circle cx="{}" cy="{}" r="3" fill="{}"><title>{} {}: {}</title></circle>',
                                     x, y, colour, days[n], name, _number(value)))
    for n in sorted({0, len(days) // 2, len(days) - 1}) if days else ():
        parts.append(format_html('<text x="{}" y="{}" font-size="11" text-anchor="middle">{}</text>',
                                 point(n, 0)[0], base + 16, days[n]))
    return _svg(title, width, base + ROW, parts)


def _legend(series: list[str], left: float) -> list[str]:
    return [format_html('<rect x="{}" y="4" width="12" height="12" fill="{}"/>'
                        '<text x="{}" y="15" font-size="12">{}</text>',
                        left + i * 110, COLOURS[i % len(COLOURS)], left + i * 110 + 16, name)
            for i, name in enumerate(series)]


def _svg(title: str, width: float, height: float, parts: list[str]) -> str:
    return format_html('<svg class="telemetry-chart" role="img" aria-label="{}" width="{}" height="{}" '
                       'viewBox="0 0 {} {}" xmlns="http://www.w3.org/2000/svg"><title>{}</title>{}</svg>',
                       title, width, height, width, height, title, mark_safe("".join(parts)))


def _number(value: float) -> str:
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"
