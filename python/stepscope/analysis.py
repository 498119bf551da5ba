"""stepscope.load: a profile's analysis in Python, from the same C++ tools as the CLI.

    profile = stepscope.load("logdir/plugins/profile/run1")   # or an .xplane.pb, trace JSON, .gz, bytes
    profile.tool("overview_page")["avg_step_time_ms"]
    profile.table("framework_op_stats", "host_ops")            # a pandas DataFrame, or a list of dicts
    profile.diff(stepscope.load("other_run"))                  # `stepscope diff` as Python objects
    profile.check(["step_ms <= 120", "input_pct <= 5"])        # `stepscope check`

Options are the tools' declared options (`stepscope analyze --help`), by name:
`profile.tool("kernel_stats", max_kernels=10)`. Errors raise the same StepscopeError
subclasses, with the same messages, as the CLI prints. In Jupyter, a Profile and every
result display as tables and charts.
"""

import json
import os

from . import InvalidArgumentError, _html
from ._stepscope import _analysis


def _option_text(value):
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def _frame(table):
    """A table as a pandas DataFrame (column ids as names) when pandas is installed, else a list of dicts."""
    ids = [column["id"] for column in table["columns"]]
    try:
        import pandas
    except ImportError:
        return [dict(zip(ids, row)) for row in table["rows"]]
    frame = pandas.DataFrame(table["rows"], columns=ids)
    frame.attrs["title"] = table["title"]
    frame.attrs["units"] = {column["id"]: column["unit"] for column in table["columns"]}
    return frame


class Result(dict):
    """A tool's result: its JSON (docs/tools.md) as a dict, plus its tables and its text.

    result["avg_step_time_ms"]        # a field of the JSON
    result.tables()                   # the names of its tables (`stepscope analyze --table`)
    result.table("steps")             # one as a DataFrame (or a list of dicts)
    print(result.text)                # what `stepscope analyze` prints
    """

    def __init__(self, native, name):
        super().__init__(json.loads(native.json()))
        self._native = native
        self.name = name

    def tables(self):
        return list(self._native.table_names())

    def table(self, name):
        return _frame(self._native.table(name))

    @property
    def text(self):
        return self._native.text()

    def _repr_html_(self):
        return _html.result_html(self.name, self, [self._native.table(name) for name in self.tables()])


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
        """The run's name; empty for a single file or bytes."""
        return self._loaded.run

    @property
    def steps(self):
        """The steps, as the overview's step rows (number, name, time and breakdown)."""
        return self.tool("overview_page")["step_time_graph"]

    def tool(self, name, **options):
        """The tool's result (a Result: its JSON as a dict, with .table() and .text)."""
        return Result(self._loaded.run_tool(name, {k: _option_text(v) for k, v in options.items()}), name)

    def table(self, tool, table, **options):
        """The tool's table: a pandas DataFrame when pandas is installed, else a list of dicts."""
        return self.tool(tool, **options).table(table)

    def diff(self, other, labels=("A", "B")):
        """`stepscope diff`: this profile (before) against `other` (after), as a Result.

        labels: how the result names the two sides (the CLI names them by path).
        """
        if not isinstance(other, Profile):
            raise InvalidArgumentError("diff: another stepscope.load Profile is expected, got %s" %
                                       type(other).__name__)
        label_a, label_b = labels
        return Result(self._loaded.diff(other._loaded, str(label_a), str(label_b)), "diff")

    def check(self, budgets=(), max=None, min=None):  # noqa: A002  (the CLI's --max/--min)
        """`stepscope check`: each budget's measured value and outcome, as a Result.

        budgets: the budget file's lines, "KEY <= VALUE" or "KEY >= VALUE" (a str of lines or a
            list of them); max / min: {KEY: VALUE} for --max KEY=VALUE / --min KEY=VALUE.
        result["all_hold"] is False when a budget is broken (the CLI's exit code 5).
        """
        lines = budgets.splitlines() if isinstance(budgets, str) else list(budgets)
        lines += ["%s <= %s" % item for item in (max or {}).items()]
        lines += ["%s >= %s" % item for item in (min or {}).items()]
        return Result(self._loaded.check("\n".join(str(line) for line in lines)), "check")

    def _repr_html_(self):
        return _html.profile_html(self)

    def __repr__(self):
        return "<stepscope.Profile run=%r hosts=%r>" % (self.run, self.hosts)


def tools():
    """Every analysis tool's id."""
    return list(_analysis.tool_ids())


def load(source, run="", host=""):
    """Loads a profile as `stepscope analyze` does.

    source: a logdir, run directory, .xplane.pb or trace JSON file (.gz too), as a path; or the
        bytes of one profile (a serialized XSpace or trace JSON, gzip or not), which are
        analysed without touching disk.
    run: a logdir's run (default: the newest); host: one host (default: all combined).
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        if run or host:
            raise InvalidArgumentError("load: run and host apply to a logdir, not to bytes")
        return Profile(_analysis.LoadedProfile.load_bytes(source, "<%d bytes>" % len(source)))
    if not isinstance(source, (str, os.PathLike)):
        raise InvalidArgumentError("load: a path or the bytes of a profile is expected, got %s" %
                                   type(source).__name__)
    return Profile(_analysis.LoadedProfile.load(os.fspath(source), run, host))
