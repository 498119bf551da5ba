"""HTML for Jupyter (`_repr_html_`): a result's fields, tables and charts, from its declaration.

Everything is drawn from what the result declares (its tables' columns, labels and units), so
every tool displays without code of its own. Charts are inline SVG: a notebook shows them with
no JavaScript and no network, and they survive `jupyter nbconvert` to HTML.
"""

import html
import math

_MAX_ROWS = 20        # rows shown per table; the rest are counted
_MAX_BARS = 15        # bars in a ranked chart
_MAX_STEPS = 200      # steps in the step chart (the first ones)
_MAX_FIELDS = 24      # top-level fields shown
_TIME_UNITS = ("ms", "us", "ps", "%", "bytes", "count")
_COLORS = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f",
           "#bab0ac")
_STYLE = ("<style>.stepscope table{border-collapse:collapse;font-size:12px;margin:4px 0 12px}"
          ".stepscope th,.stepscope td{border-bottom:1px solid #ddd;padding:2px 8px;text-align:right}"
          ".stepscope th:first-child,.stepscope td:first-child{text-align:left}"
          ".stepscope caption{text-align:left;font-weight:bold;padding:4px 0}</style>")


def _esc(value):
    return html.escape(str(value), quote=True)


def _number(value, decimals=2):
    if isinstance(value, bool) or value is None:
        return "-" if value is None else str(value).lower()
    if isinstance(value, float):
        if not math.isfinite(value):
            return str(value)
        return "{:,.{}f}".format(value, max(0, decimals))
    if isinstance(value, int):
        return "{:,}".format(value)
    return str(value)


def _header(column):
    unit = column.get("unit") or ""
    label = column.get("label") or column["id"]
    if not unit or unit == "count" or unit.lower() in label.lower():
        return label  # "Count", "Self %": the label says it already
    return "%s (%s)" % (label, unit)


def table_html(table):
    """One declared table: a caption, labelled headers and the first rows."""
    columns, rows = table["columns"], table["rows"]
    parts = ["<table><caption>%s</caption><tr>" % _esc(table.get("title") or table["name"])]
    parts += ["<th>%s</th>" % _esc(_header(c)) for c in columns]
    parts.append("</tr>")
    for row in rows[:_MAX_ROWS]:
        cells = (_number(v, c.get("decimals", 2)) for c, v in zip(columns, row))
        parts.append("<tr>%s</tr>" % "".join("<td>%s</td>" % _esc(cell) for cell in cells))
    if len(rows) > _MAX_ROWS:
        parts.append("<tr><td colspan=%d>… %d more rows (.table(%r) has them all)</td></tr>" %
                     (len(columns), len(rows) - _MAX_ROWS, table["name"]))
    parts.append("</table>")
    return "".join(parts)


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _ranked_columns(table):
    """(label column, value column) for a ranked bar chart, or None: names against a measure."""
    columns, rows = table["columns"], table["rows"]
    if not rows:
        return None
    label = next((i for i, c in enumerate(columns) if isinstance(rows[0][i], str)), None)
    value = next((i for i, c in enumerate(columns)
                  if c.get("unit") in _TIME_UNITS and all(_is_number(r[i]) for r in rows[:_MAX_BARS])), None)
    if label is None or value is None:
        return None
    return label, value


def bar_chart_html(table):
    """The table's first rows as horizontal bars of its first measured column; '' when it has none."""
    picked = _ranked_columns(table)
    if picked is None:
        return ""
    label, value = picked
    rows = table["rows"][:_MAX_BARS]
    largest = max((r[value] for r in rows), default=0) or 1
    column = table["columns"][value]
    height, width, left = 18, 640, 260
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-size="11">' %
             (width, height * len(rows) + 20)]
    parts.append('<text x="0" y="12" font-weight="bold">%s: %s</text>' %
                 (_esc(table.get("title") or table["name"]), _esc(_header(column))))
    for i, row in enumerate(rows):
        y = 20 + i * height
        bar = max(1.0, (width - left - 90) * row[value] / largest) if row[value] > 0 else 0
        name = str(row[label])
        name = name if len(name) <= 40 else name[:39] + "…"
        parts.append('<text x="0" y="%d">%s</text>' % (y + 12, _esc(name)))
        parts.append('<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"><title>%s</title></rect>' %
                     (left, y + 2, bar, height - 5, _COLORS[0], _esc(row[label])))
        parts.append('<text x="%.1f" y="%d">%s</text>' %
                     (left + bar + 4, y + 12, _esc(_number(row[value], column.get("decimals", 2)))))
    parts.append("</svg>")
    return "".join(parts)


def step_chart_html(result):
    """Stacked bars of each step's time by category (the overview's and input pipeline's steps)."""
    steps = result.get("step_time_graph") or []
    categories = list((result.get("step_time_breakdown_ms") or {}).keys())
    if not steps or not categories:
        return ""
    steps = steps[:_MAX_STEPS]
    largest = max((s.get("step_time_ms") or 0) for s in steps) or 1
    plot_h, left, top = 160, 50, 20
    bar_w = max(2, min(24, 600 // len(steps)))
    width = left + bar_w * len(steps) + 170
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-size="11">' %
             (width, plot_h + top + 30)]
    parts.append('<text x="0" y="12" font-weight="bold">Step time by category (ms)</text>')
    parts.append('<text x="0" y="%d">%s</text>' % (top + 10, _esc(_number(largest, 1))))
    parts.append('<text x="0" y="%d">0</text>' % (top + plot_h))
    for i, step in enumerate(steps):
        x, y = left + i * bar_w, top + plot_h
        for k, category in enumerate(categories):
            ms = step.get(category + "_ms") or 0
            if ms <= 0:
                continue
            h = plot_h * ms / largest
            y -= h
            parts.append('<rect x="%d" y="%.1f" width="%d" height="%.1f" fill="%s"><title>step %s: %s %s ms</title>'
                         '</rect>' % (x, y, max(1, bar_w - 1), h, _COLORS[k % len(_COLORS)],
                                      _esc(step.get("step_number")), _esc(category), _esc(_number(ms, 3))))
    for k, category in enumerate(categories):
        y = top + 12 * k
        parts.append('<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text x="%d" y="%d">%s</text>' %
                     (width - 160, y, _COLORS[k % len(_COLORS)], width - 145, y + 9, _esc(category)))
    parts.append('<text x="%d" y="%d">steps %s…%s</text>' % (left, top + plot_h + 22,
                                                            _esc(steps[0].get("step_number")),
                                                            _esc(steps[-1].get("step_number"))))
    parts.append("</svg>")
    return "".join(parts)


def fields_html(result):
    """The result's top-level single values (numbers, words) as a two-column table."""
    items = [(k, v) for k, v in result.items() if v is None or isinstance(v, (str, int, float, bool))]
    if not items:
        return ""
    rows = "".join("<tr><td>%s</td><td>%s</td></tr>" % (_esc(k), _esc(_number(v)))
                   for k, v in items[:_MAX_FIELDS])
    return "<table>%s</table>" % rows


def result_html(name, result, tables):
    """A whole result: its fields, its step chart or first ranked chart, and its tables."""
    parts = [_STYLE, '<div class="stepscope"><h4>%s</h4>' % _esc(name), fields_html(result)]
    chart = step_chart_html(result)
    if not chart:
        chart = next((c for c in (bar_chart_html(t) for t in tables) if c), "")
    parts.append(chart)
    parts += [table_html(t) for t in tables]
    parts.append("</div>")
    return "".join(parts)


def profile_html(profile):
    """A profile at a glance: its run and hosts, the overview's verdict and the step chart."""
    overview = profile.tool("overview_page")
    summary = {
        "run": profile.run or "-",
        "hosts": ", ".join(profile.hosts),
        "steps": overview.get("steps"),
        "avg_step_time_ms": overview.get("avg_step_time_ms"),
        "input_bound_percent": overview.get("input_bound_percent"),
        "verdict": overview.get("input_bound_statement"),
    }
    return "".join([_STYLE, '<div class="stepscope"><h4>stepscope profile</h4>', fields_html(summary),
                    step_chart_html(overview), "</div>"])
