#!/usr/bin/env python3
"""Regenerates the README's config reference from the registry: `vitrine scenes --markdown`
between the config-reference markers (a test keeps the two equal)."""
import os, subprocess, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, ".build/debug/vitrine")
reference = subprocess.run([binary, "scenes", "--markdown"], check=True, capture_output=True, text=True).stdout
path = os.path.join(root, "README.md")
text = open(path).read()
begin, end = "<!-- config-reference:begin -->\n", "<!-- config-reference:end -->"
start = text.index(begin) + len(begin)
stop = text.index(end, start)
open(path, "w").write(text[:start] + reference + text[stop:])
