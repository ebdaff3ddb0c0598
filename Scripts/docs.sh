#!/usr/bin/env bash
# Builds the DocC catalog of every public module, offline, and fails on any DocC warning (an
# unresolved link, an undocumented parameter, …), on a public declaration without a `///`
# comment, and when the README's module-alias spelling no longer builds.
#
#   Scripts/docs.sh [--output DIR] [--traits T1,T2]
#       archives in DIR/<Module>.doccarchive (default .build/docs)
#
# The symbol graphs come from the debug build (`swift package dump-symbol-graph` reuses what
# `swift build` built, so after it this adds seconds, not a second build: pass the traits that
# build had, since other traits mean other compiler flags and a rebuild); then `docc convert`
# runs once per catalog with `--warnings-as-errors`. Needs the Swift toolchain and python3.
set -euo pipefail
cd "$(dirname "$0")/.."

modules=(BehaviorKit StateMachines StateMachineSwitch Commands Chains DurableMachines BehaviorKitTesting BehaviorKitSQLite BehaviorKitServiceLifecycle
    BehaviorKitPostgres BehaviorKitConsole)
output=.build/docs
traits=()
while [ $# -gt 0 ]; do
    case $1 in
    --output) output=$2; shift 2 ;;
    --traits) traits=(--traits "$2"); shift 2 ;;
    *) echo "usage: Scripts/docs.sh [--output DIR] [--traits T1,T2]" >&2; exit 64 ;;
    esac
done

docc="$(dirname "$(readlink -f "$(command -v swift)")")/docc"
[ -x "$docc" ] || docc=$(command -v docc)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
started=$SECONDS
lap() { printf '   (%s: %d s)\n' "$1" $((SECONDS - started)); }

# Without inherited docs, a declaration that has no comment of its own shows as undocumented.
swift package "${traits[@]}" dump-symbol-graph --skip-inherited-docs >"$work/dump.txt" 2>&1 || {
    cat "$work/dump.txt" >&2
    exit 1
}
graphs=$(sed -n 's/^Files written to //p' "$work/dump.txt")
lap "symbol graphs"

failed=0
mkdir -p "$output"
for module in "${modules[@]}"; do
    catalog=Sources/$module/Documentation.docc
    if [ ! -d "$catalog" ]; then
        echo "error: $module has no DocC catalog ($catalog)" >&2
        failed=1
        continue
    fi
    mkdir -p "$work/graphs/$module"
    cp "$graphs/$module.symbols.json" "$work/graphs/$module/"
    for extension in "$graphs/$module@"*.symbols.json; do
        [ -e "$extension" ] && cp "$extension" "$work/graphs/$module/"
    done
    rm -rf "${output:?}/$module.doccarchive"
    if "$docc" convert "$catalog" --additional-symbol-graph-dir "$work/graphs/$module" \
        --output-dir "$output/$module.doccarchive" --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.behaviorkit.$module" --warnings-as-errors >"$work/$module.txt" 2>&1 &&
        ! grep -qE "(warning|error):" "$work/$module.txt"; then
        :
    else
        echo "error: DocC reported problems in $module:" >&2
        cat "$work/$module.txt" >&2
        failed=1
    fi
done
lap "docc convert"

# Every public declaration written in Sources has a `///` comment of its own (underscored
# builder plumbing, hidden from the docs, aside).
python3 - "$graphs" "${modules[@]}" <<'PYTHON' || failed=1
import json, sys
graphs, modules = sys.argv[1], sys.argv[2:]
missing = []
for module in modules:
    graph = json.load(open(f"{graphs}/{module}.symbols.json"))
    for symbol in graph["symbols"]:
        uri = symbol.get("location", {}).get("uri", "")
        if "/Sources/" not in uri or any(part.startswith("_") for part in symbol["pathComponents"]):
            continue
        if not symbol.get("docComment", {}).get("lines"):
            line = symbol["location"]["position"]["line"] + 1
            missing.append(f"Sources/{uri.split('/Sources/', 1)[1]}:{line}: {'.'.join(symbol['pathComponents'])}")
for entry in sorted(missing):
    print(f"error: no /// comment: {entry}", file=sys.stderr)
sys.exit(1 if missing else 0)
PYTHON
lap "undocumented declarations"

# The README's spelling for a clash of module names: a client with a `Commands` module of its
# own, and ours renamed by a module alias.
fixture=Tests/Fixtures/ModuleAliasClient
if swift build --package-path "$fixture" --scratch-path .build/fixtures/module-alias >"$work/alias.txt" 2>&1 &&
    [ "$(.build/fixtures/module-alias/debug/Client)" = "$(printf "ran make all\nheld by ada, grace")" ]; then
    :
else
    echo "error: $fixture (the README's moduleAliases spelling) does not build or run:" >&2
    cat "$work/alias.txt" >&2
    failed=1
fi
lap "module-alias client"

[ "$failed" -eq 0 ] || exit 1
echo "docs: ${#modules[@]} catalogs in $output, no warnings, every public declaration documented ($((SECONDS - started)) s)"
