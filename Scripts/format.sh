#!/usr/bin/env bash
# Formats every Swift file, lints with --strict, and fails when formatting changed anything.
# `Scripts/format.sh --check` only lints and checks, for CI.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files -co --exclude-standard -- '*.swift' | while read -r f; do [ -f "$f" ] && [ ! -L "$f" ] && echo "$f"; done)
if [ "${1:-}" != "--check" ]; then
    swift format format --in-place --parallel "${files[@]}"
fi
swift format lint --strict --parallel "${files[@]}"
if [ "${1:-}" = "--check" ]; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    for f in "${files[@]}"; do
        mkdir -p "$tmp/$(dirname "$f")"
        swift format format "$f" > "$tmp/$f"
        if ! cmp -s "$f" "$tmp/$f"; then
            echo "not formatted: $f (run Scripts/format.sh)" >&2
            diff -u "$f" "$tmp/$f" | head -20 >&2
            exit 1
        fi
    done
fi
