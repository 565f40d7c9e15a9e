# SPDX-License-Identifier: Apache-2.0
"""C API pages of the manual from the public headers include/cosrod/*.h.

The headers document themselves with plain C comments: a header opens with a
comment on its module, and every declaration group (declarations not
separated by a blank line) carries a comment right above it or at the end of
its line.  This script writes one page per header with that comment and every
group as C code, plus an index of all functions, and counts the public
functions (COSROD_API) that have no comment: build_docs.py fails on any.
"""
import os
import re
import sys

_DECL = re.compile(r"\bCOSROD_API\b[^;{]*?\b(cosrod_\w+)\s*\(", re.S)
_SKIP = re.compile(r"^\s*(#\s*(ifndef|define|endif|include|ifdef|if|else)\b|extern \"C\" \{|\}\s*$|}\s*/\*)")


def _chunks(text):
    """Blank-line separated chunks of a header, minus the preprocessor
    boilerplate; the first comment is the module comment."""
    text = re.sub(r"\A//\s*SPDX-License-Identifier:[^\n]*\n", "", text)
    body = text
    lead = ""
    m = re.match(r"\s*/\*(.*?)\*/", text, re.S)
    if m:
        lead = m.group(1)
        body = text[m.end():]
    chunks, cur = [], []
    for line in body.splitlines():
        if not line.strip():
            if cur:
                chunks.append(cur)
            cur = []
            continue
        if _SKIP.match(line) and not line.strip().startswith("}") or line.strip() in ("#ifdef __cplusplus", "}"):
            continue
        cur.append(line)
    if cur:
        chunks.append(cur)
    return _clean_lead(lead), ["\n".join(c) for c in chunks]


def _clean_lead(lead):
    return "\n".join(re.sub(r"^\s?\*\s?", "", l) for l in lead.strip("\n").splitlines())


def _documented(chunk, name):
    """A function is documented when a comment precedes it in its group
    (declarations not separated by a blank line share the comment above
    them) or its own declaration carries a trailing comment."""
    i = chunk.find(name + "(")
    i = chunk.find(name) if i < 0 else i
    if "/*" in chunk[:i] or "//" in chunk[:i]:
        return True
    end = chunk.find(";", i)
    line_end = chunk.find("\n", end)
    tail = chunk[end:line_end if line_end >= 0 else len(chunk)]
    return "/*" in tail or "//" in tail


def generate(include_dir, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    undocumented = 0
    index = ["# C API\n",
             "One public header per module under `include/cosrod/` (`#include <cosrod/cosrod.h>` includes them all). "
             "Objects are opaque: `_create` returns one, `_free` releases it; a model is constant after creation, "
             "a `_data` object holds what changes.  Functions return a `cosrod_status` or NULL on failure, "
             "and the last error text is available through the status module.\n",
             "```{toctree}\n:maxdepth: 1\n"]
    table = ["\n| function | header |\n|---|---|"]
    for name in sorted(os.listdir(include_dir)):
        if not name.endswith(".h"):
            continue
        with open(os.path.join(include_dir, name)) as f:
            text = f.read()
        lead, chunks = _chunks(text)
        stem = name[:-2]
        page = [f"# cosrod/{name}\n", "```text", lead, "```\n"]
        funcs = []
        for c in chunks:
            names = _DECL.findall(c)
            for n in names:
                funcs.append(n)
                if not _documented(c, n):
                    print(f"{os.path.join('include', 'cosrod', name)}: {n}: public function without a comment",
                          file=sys.stderr)
                    undocumented += 1
            if c.strip():
                page += ["```c", c, "```\n"]
        if not funcs and len(chunks) <= 1 and name in ("export.h",):
            continue
        with open(os.path.join(out_dir, stem + ".md"), "w") as f:
            f.write("\n".join(page))
        index.append(stem)
        table += [f"| `{n}` | [{name}]({stem}.md) |" for n in funcs]
    index.append("```")
    with open(os.path.join(out_dir, "index.md"), "w") as f:
        f.write("\n".join(index + table) + "\n")
    return undocumented


if __name__ == "__main__":
    sys.exit(1 if generate(sys.argv[1], sys.argv[2]) else 0)
