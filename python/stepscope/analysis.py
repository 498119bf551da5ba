"""stepscope.load: a profile's analysis in Python, from the same C++ tools as the CLI.

    profile = stepscope.load("logdir/plugins/profile/run1")   # or an .xplane.pb, trace JSON, .gz
    profile.tool("overview_page")["avg_step_time_ms"]
    profile.table("framework_op_stats", "host_ops")            # a pandas DataFrame, or a list of dicts
    profile.diff(stepscope.load("other_run"))                  # `stepscope diff` as Python objects

Options are the tools' declared options (`stepscope analyze --help`), by name:
`profile.tool("kernel_stats", max_kernels=10)`. Errors raise the same StepscopeError
subclasses, with the same messages, as the CLI prints.
"""

import json

from ._stepscope import _analysis


def _option_text(value):
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


class Profile:
    """One loaded profile: every selected host's model combined, as `stepscope analyze` reads it."""

    def __init__(self, loaded):
        self._loaded = loaded

    @property
    def hosts(self):
        """Every host of the run (the model combines those selected)."""
        return list(self._loaded.hosts)

    @property
    def run(self):
        """The run's name; empty for a single file."""
        return self._loaded.run

    @property
    def steps(self):
        """The steps, as the overview's step rows (number, name, time and breakdown)."""
        return self.tool("overview_page")["step_time_graph"]

    def tool(self, name, **options):
        """The tool's result: its JSON (docs/tools.md) as Python objects."""
        return json.loads(self._loaded.tool_json(name, {k: _option_text(v) for k, v in options.items()}))

    def diff(self, other, labels=("A", "B")):
        """`stepscope diff`: this profile (before) against `other` (after), as Python objects.

        labels: how the result names the two sides (the CLI names them by path).
        """
        label_a, label_b = labels
        return json.loads(self._loaded.diff_json(other._loaded, str(label_a), str(label_b)))

    def table(self, tool, table, **options):
        """The tool's table: a pandas DataFrame when pandas is installed, else a list of dicts."""
        columns, rows = self._loaded.table(tool, table, {k: _option_text(v) for k, v in options.items()})
        try:
            import pandas
        except ImportError:
            return [dict(zip(columns, row)) for row in rows]
        return pandas.DataFrame(rows, columns=columns)


def tools():
    """Every analysis tool's id."""
    return list(_analysis.tool_ids())


def load(path, run="", host=""):
    """Loads a logdir, run directory, .xplane.pb or trace JSON (.gz too) as `stepscope analyze` does.

    run: a logdir's run (default: the newest); host: one host (default: all combined).
    """
    return Profile(_analysis.LoadedProfile.load(str(path), run, host))
