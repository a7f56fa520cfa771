#!/usr/bin/env python3
"""The size of the rooms: no C or Python file over 600 lines, no function over 80 (issue 30).

Counts every *.c, *.h and *.py file git tracks, and the new ones it does not ignore (so a file
counts before its commit), from the top of the checkout:
- a file: its lines (wc -l);
- a C function: from its opening line at column 0 (a line that starts with a name and has a '('
  before the '{' that opens the body, with no '=' or ';' on the way: not a prototype, not an
  initialised table) to its closing brace at column 0, both counted; a body opened and closed on
  its opening line is one line;
- a Python function or method: with the ast module, from its 'def' line to its last line (a
  nested function counts inside its outer one and again on its own).
Prints one line per offender and exits 1 if there is any, 0 if none.

    python3 tools/rooms.py            (make rooms)
"""
import ast
import subprocess
import sys
from pathlib import Path

MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 80

# Files that may be larger, each with why: only generated code or test data, never a room someone
# writes by hand.  Empty: nothing needs it today.
EXEMPT = {}

NOT_A_START = (" ", "\t", "#", "/", "*", "}", "{")


def c_body_start(lines, i):
    """The index of the line holding the '{' that opens a function whose opening line is i, or None."""
    for j in range(i, min(i + 12, len(lines))):
        text = lines[j].split("//", 1)[0]
        for ch in text:
            if ch in "=;":
                return None
            if ch == "{":
                return j
    return None


def c_functions(lines):
    """(first line number, name, line count) of every C function defined in lines."""
    found = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line or line.startswith(NOT_A_START) or "(" not in line:
            i += 1
            continue
        opening = c_body_start(lines, i)
        if opening is None or "(" not in "".join(lines[i:opening + 1]).split("{", 1)[0]:
            i += 1
            continue
        name = line.split("(", 1)[0].split()[-1].lstrip("*") if line.split("(", 1)[0].split() else "?"
        after = lines[opening].split("{", 1)[1]
        if after.count("}") > after.count("{"):
            end = opening
        else:
            end = next((k for k in range(opening + 1, len(lines)) if lines[k].startswith("}")), len(lines) - 1)
        found.append((i + 1, name, end - i + 1))
        i = end + 1
    return found


def python_functions(source, path):
    """(first line number, qualified name, line count) of every Python function in source."""
    found = []

    def walk(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.append((child.lineno, prefix + child.name, child.end_lineno - child.lineno + 1))
                walk(child, prefix + child.name + ".")
            elif isinstance(child, ast.ClassDef):
                walk(child, prefix + child.name + ".")
            else:
                walk(child, prefix)

    walk(ast.parse(source, filename=str(path)), "")
    return found


def offenders(top, files):
    """The lines to print: every file over MAX_FILE_LINES, every function over MAX_FUNCTION_LINES."""
    out = []
    for rel in files:
        if rel in EXEMPT:
            continue
        text = (top / rel).read_text(encoding="utf-8", errors="replace")
        lines = text.splitlines()
        if len(lines) > MAX_FILE_LINES:
            out.append(f"{rel}: {len(lines)} lines (the limit is {MAX_FILE_LINES})")
        funcs = python_functions(text, rel) if rel.endswith(".py") else c_functions(lines)
        for lineno, name, count in funcs:
            if count > MAX_FUNCTION_LINES:
                out.append(f"{rel}:{lineno}: {name}: {count} lines (the limit is {MAX_FUNCTION_LINES})")
    return out


def main():
    top = Path(subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True,
                              check=True, cwd=Path(__file__).resolve().parent).stdout.strip())
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.c", "*.h", "*.py"], capture_output=True, text=True,
                           check=True, cwd=top).stdout.split()
    found = offenders(top, [f for f in files if (top / f).is_file()])
    for line in found:
        print(line)
    print(f"rooms: {len(files)} files, {len(found)} over the limits"
          f" ({MAX_FILE_LINES} lines a file, {MAX_FUNCTION_LINES} a function)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
