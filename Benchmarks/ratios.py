#!/usr/bin/env python3
"""Prints each benchmark's median against its floor measured in the same run.

    swift package --allow-writing-to-package-directory benchmark [--target T] | python3 ratios.py

or `python3 ratios.py saved-output.txt`. A benchmark `X` is paired with `X.floor`; peers
`X.peer.<Name>` are shown against the same floor. Times are the p50 wall clock per scaled
iteration (each benchmark makes one scaled iteration one operation: one event, one command...).
"""
import re
import sys


def parse(text):
    medians, name, in_table = {}, None, False
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if not stripped.startswith(("│", "╒", "╞", "├", "╘", "=")) and not in_table:
            name = stripped
            continue
        if stripped.startswith("╒"):
            in_table = True
        if stripped.startswith("╘"):
            in_table = False
        if name and stripped.startswith("│ Time (wall clock)"):
            cells = [c.strip() for c in stripped.strip("│").split("│")]
            unit = re.search(r"\((\w+)\)", cells[0]).group(1)
            scale = {"ns": 1, "us": 1e3, "μs": 1e3, "ms": 1e6, "s": 1e9}.get(unit, 1)
            medians[name] = float(cells[3].replace(",", "")) * scale
    return medians


def main():
    text = open(sys.argv[1]).read() if len(sys.argv) > 1 else sys.stdin.read()
    medians = parse(text)
    rows = []
    for name, ns in sorted(medians.items()):
        if name.endswith(".floor"):
            continue
        base = name.split(".peer.")[0]
        floor = medians.get(base + ".floor")
        ratio = f"{ns / floor:.2f}x" if floor else "-"
        rows.append((name, f"{ns:.1f}", f"{floor:.1f}" if floor else "-", ratio))
    header = ("benchmark", "p50 ns/op", "floor ns/op", "ratio")
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(4)]
    for row in [header] + rows:
        print("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)))


if __name__ == "__main__":
    main()
