"""The contract of `./dev bench` for the Python benchmarks, as bench_figures.h is for the
C++ ones: a benchmark's headline figures, one flat JSON object (figure name -> number),
written to $STEPSCOPE_BENCH_OUT/<name>.json (default <source>/build/bench) and printed."""

import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.environ.get("STEPSCOPE_BENCH_OUT", os.path.join(ROOT, "build", "bench"))


def write_figures(name, figures):
    """Writes `figures` to OUT/<name>.json, prints them and returns the path."""
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, name + ".json")
    with open(path, "w") as f:
        json.dump(figures, f, indent=2, sort_keys=True)
        f.write("\n")
    print(json.dumps(figures, indent=2, sort_keys=True))
    return path
