#!/usr/bin/env bash
# The manifest says what the code imports: every module a target imports (in Sources/<Target> or
# Tests/<Target>) is one of its declared dependencies (a target, or a product whose module has
# the product's name), and every dependency it declares is imported somewhere in it. SwiftPM's
# `--explicit-target-dependency-import-check error` (run by CI's build too) only catches an import
# outside the target's transitive dependencies; this catches the transitive ones as well.
#
#   Scripts/imports.sh
set -euo pipefail
cd "$(dirname "$0")/.."
manifest=$(mktemp)
trap 'rm -f "$manifest"' EXIT
swift package dump-package >"$manifest"
python3 - "$manifest" <<'PYTHON'
import json, os, re, sys

package = json.load(open(sys.argv[1]))
# Modules of the toolchain and the system: no manifest entry declares them.
system = {
    "Foundation", "FoundationEssentials", "FoundationNetworking", "Dispatch", "Glibc", "Darwin", "Musl",
    "Android", "WinSDK", "Testing", "XCTest", "Synchronization", "_Concurrency", "os", "ucrt", "CRT", "FoundationXML",
}
# Products whose module is not named as the product.
product_modules = {}
pattern = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate)\s+)?"
                     r"import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)")
problems = []
for target in package["targets"]:
    name = target["name"]
    folder = target.get("path") or os.path.join("Tests" if target["type"] == "test" else "Sources", name)
    if not os.path.isdir(folder):
        continue
    declared = set()
    for dependency in target["dependencies"]:
        kind, value = next(iter(dependency.items()))
        declared.add(product_modules.get(value[0], value[0]))
    imported = {}
    for root, _, files in os.walk(folder):
        for file in files:
            if not file.endswith(".swift"):
                continue
            path = os.path.join(root, file)
            for number, line in enumerate(open(path, encoding="utf-8"), 1):
                match = pattern.match(line)
                if match:
                    imported.setdefault(match.group(1), f"{path}:{number}")
                # A macro's implementation is named by `#externalMacro`, never imported.
                for macro in re.findall(r'#externalMacro\(module: "([A-Za-z0-9_]+)"', line):
                    imported.setdefault(macro, f"{path}:{number}")
    for module, where in sorted(imported.items()):
        if module not in declared and module not in system and module != name:
            problems.append(f"{where}: {name} imports {module} without declaring it in Package.swift")
    for module in sorted(declared - set(imported)):
        problems.append(f"Package.swift: {name} declares {module} and never imports it")
for problem in problems:
    print(f"error: {problem}", file=sys.stderr)
if problems:
    sys.exit(1)
print(f"imports: every target imports exactly what Package.swift declares ({len(package['targets'])} targets)")
PYTHON
