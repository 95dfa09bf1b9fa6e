#!/usr/bin/env bash
# Builds the DocC documentation of the engine's libraries with the toolchain's `docc`: symbol graphs
# from a debug build, then one archive per catalog under .build/docs/. Prints DocC's warnings.
set -euo pipefail
cd "$(dirname "$0")/.."

graphs=.build/symbol-graphs
rm -rf "$graphs" .build/docs
mkdir -p "$graphs" .build/docs
swift build --product food-log -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs"
for catalog in Sources/*/*.docc; do
    module=$(basename "$(dirname "$catalog")")
    only="$graphs/$module"
    mkdir -p "$only"
    cp "$graphs/$module".symbols.json "$graphs/$module"@*.symbols.json "$only"/ 2>/dev/null || true
    echo "== $module"
    docc convert "$catalog" --additional-symbol-graph-dir "$only" --fallback-display-name "$module" \
        --fallback-bundle-identifier "inkwell.$module" --output-path ".build/docs/$module.doccarchive"
done
