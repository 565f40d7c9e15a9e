# SPDX-License-Identifier: Apache-2.0
"""Sphinx extension of the cosrod manual: every public function, class,
method and property of the Python package must carry a docstring (a missing
one is a warning, and the build runs with warnings as errors); docstrings
are shown as the plain text they are."""
import inspect

from sphinx.util import logging

_log = logging.getLogger(__name__)


def _public(obj):
    names = getattr(obj, "__all__", None)
    if names is None:
        names = [n for n in dir(obj) if not n.startswith("_")]
    return [(n, getattr(obj, n)) for n in names if hasattr(obj, n)]


def _check_module(mod):
    missing = []
    for name, obj in _public(mod):
        if inspect.isfunction(obj) or inspect.isclass(obj) or inspect.isbuiltin(obj):
            if not (obj.__doc__ or "").strip():
                missing.append(f"{mod.__name__}.{name}")
        if inspect.isclass(obj) and obj.__module__.startswith("cosrod"):
            for mname, m in vars(obj).items():
                if mname.startswith("_") or not (inspect.isfunction(m) or isinstance(m, property)):
                    continue
                if not (m.__doc__ or "").strip():
                    missing.append(f"{mod.__name__}.{name}.{mname}")
    return missing


def check_docstrings(app):
    modules = app.config.cosrod_docstring_modules
    for modname in modules:
        try:
            mod = __import__(modname, fromlist=["_"])
        except Exception as e:  # noqa: BLE001 - reported as a build warning
            _log.warning(f"cosrod_docs: cannot import {modname}: {e}")
            continue
        for m in _check_module(mod):
            _log.warning(f"cosrod_docs: {m} has no docstring")


def literal_docstring(app, what, name, obj, options, lines):
    """cosrod's docstrings are plain text (examples, aligned columns), not
    reStructuredText: show each one as a literal block, as written."""
    if not lines:
        return
    body = ["    " + l if l.strip() else "" for l in lines]
    lines[:] = ["::", ""] + body + [""]


def setup(app):
    app.add_config_value("cosrod_docstring_modules", ["cosrod", "cosrod.study", "cosrod.plot"], "env")
    app.connect("builder-inited", check_docstrings)
    app.connect("autodoc-process-docstring", literal_docstring)
    return {"version": "1", "parallel_read_safe": True}
