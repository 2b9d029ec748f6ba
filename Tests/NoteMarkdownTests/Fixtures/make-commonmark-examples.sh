#!/usr/bin/env bash
# Writes commonmark-examples.json: the examples of the CommonMark specification (0.31.2,
# by John MacFarlane, CC-BY-SA 4.0) in the sections that hold links, images and the code and
# HTML they must not be found in, as markdown-it-py's source distribution carries them.
# Needs pip and network access to PyPI.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
pip download --quiet --no-binary :all: --no-deps --dest "$scratch" 'markdown-it-py==4.3.0'
tar -xzf "$scratch"/markdown_it_py-4.3.0.tar.gz -C "$scratch"
python3 - "$scratch/markdown_it_py-4.3.0/tests/test_cmark_spec/commonmark.json" >commonmark-examples.json <<'PYTHON'
import json, sys
sections = {
    "Links", "Images", "Link reference definitions", "Autolinks", "Code spans", "Fenced code blocks",
    "Indented code blocks", "Raw HTML", "HTML blocks", "Backslash escapes",
    "Entity and numeric character references",
}
examples = [
    {"example": e["example"], "section": e["section"], "markdown": e["markdown"], "html": e["html"]}
    for e in json.load(open(sys.argv[1])) if e["section"] in sections
]
document = {
    "source": "CommonMark Spec 0.31.2, https://spec.commonmark.org/0.31.2/, by John MacFarlane",
    "license": "CC-BY-SA 4.0, https://creativecommons.org/licenses/by-sa/4.0/",
    "examples": examples,
}
json.dump(document, sys.stdout, ensure_ascii=False, indent=1)
print()
PYTHON
