# SPDX-License-Identifier: Apache-2.0
# Sphinx configuration of the cosrod manual.  Built by tools/build_docs.py
# (`make docs`), which copies docs/ into the build tree, writes the generated
# pages (scenario reference, C API, validation table, tutorial outputs) next
# to it and runs sphinx-build with warnings as errors.
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "_ext"))

project = "cosrod"
author = "the cosrod authors"
copyright = "the cosrod authors, Apache-2.0"
release = os.environ.get("COSROD_VERSION", "")

extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.mathjax", "cosrod_docs"]
myst_enable_extensions = ["dollarmath", "colon_fence"]
myst_heading_anchors = 3
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
# pages generated into _gen/ that are pulled in by {include}
exclude_patterns = ["_build", "_gen/scenario.md", "_gen/validation.md"]
html_theme = "alabaster"
html_title = "cosrod manual"
html_static_path = []
nitpicky = False
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "undoc-members": True, "show-inheritance": True}
