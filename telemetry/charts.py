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
    parts = []
    for i, name in enumerate(series):
        x = LABEL_WIDTH + i * 110
        parts.append(format_html('<rect x="{}" y="4" width="12" height="12" fill="{}"/>'
                                 '<text x="{}" y="15" font-size="12">{}</text>',
                                 x, COLOURS[i % len(COLOURS)], x + 16, name))
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
    return format_html('<svg class="telemetry-chart" role="img" aria-label="{}" width="{}" height="{}" '
                       'viewBox="0 0 {} {}" xmlns="http://www.w3.org/2000/svg"><title>{}</title>{}</svg>',
                       title, width, height, width, height, title, mark_safe("".join(parts)))


def _number(value: float) -> str:
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"
