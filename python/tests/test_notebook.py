"""examples/notebook.ipynb, executed by Debian's Jupyter (`jupyter nbconvert --execute`).

The notebook holds its own truth: it asserts that the profile's step time is the program's
own clock's. Here: it runs to the end, and every result displays as HTML with its charts.
"""

import json
import os
import subprocess
import tempfile
import unittest

NOTEBOOK = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "notebook.ipynb")


class NotebookTest(unittest.TestCase):
    def test_the_example_notebook_runs_and_displays_its_results(self):
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ)
            # The kernel runs in examples/: the module's path must not be relative. Jupyter's
            # runtime and IPython's history go to the scratch directory, not $HOME.
            env["PYTHONPATH"] = os.path.abspath(env.get("PYTHONPATH", ""))
            env.update(JUPYTER_RUNTIME_DIR=os.path.join(tmp, "runtime"), IPYTHONDIR=os.path.join(tmp, "ipython"))
            run = subprocess.run(["jupyter", "nbconvert", "--to", "notebook", "--execute", NOTEBOOK, "--output-dir",
                                  tmp, "--ExecutePreprocessor.timeout=300"], capture_output=True, text=True, env=env)
            self.assertEqual(run.returncode, 0, run.stderr[-4000:])
            with open(os.path.join(tmp, "notebook.ipynb")) as f:
                executed = json.load(f)
        outputs = [o for cell in executed["cells"] if cell["cell_type"] == "code" for o in cell["outputs"]]
        self.assertEqual([o for o in outputs if o["output_type"] == "error"], [])
        pages = ["".join(o["data"]["text/html"]) for o in outputs if "text/html" in o.get("data", {})]
        self.assertGreaterEqual(len(pages), 5)  # profile, overview, DataFrame, check, diff
        self.assertTrue(any("Step time by category" in page for page in pages), "the step chart")
        self.assertTrue(any('class="dataframe' in page for page in pages), "pandas' table of the top ops")
        printed = "".join("".join(o.get("text", "")) for o in outputs if o["output_type"] == "stream")
        self.assertIn("program measured", printed)


if __name__ == "__main__":
    unittest.main()
