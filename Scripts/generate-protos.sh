#!/usr/bin/env bash
# Regenerates Sources/InkwellWire/Generated and Sources/InkwellBoard/Generated from Protos/ with Debian's protoc and protoc-gen-swift
# built from the same swift-protobuf version the package depends on. The output is committed, so
# building the package never needs this; run it after editing a .proto file.
set -euo pipefail
cd "$(dirname "$0")/.."

version=1.39.0
plugin_dir=.build-protoc/swift-protobuf-$version
plugin=$plugin_dir/.build/release/protoc-gen-swift

if ! command -v protoc >/dev/null; then
    apt-get update && apt-get install -y protobuf-compiler
fi
if [ ! -x "$plugin" ]; then
    rm -rf "$plugin_dir"
    git clone --quiet https://github.com/apple/swift-protobuf.git "$plugin_dir"
    git -C "$plugin_dir" checkout --quiet "$version"
    swift build -c release --package-path "$plugin_dir" --product protoc-gen-swift
fi

# The engine's messages go to the wire module; the whiteboard's operations to the board module.
# model.proto has no generated code: InkwellModel writes its few bytes directly.
generate() {
    local out=$1
    shift
    mkdir -p "$out"
    rm -f "$out"/*.pb.swift
    protoc \
        --plugin=protoc-gen-swift="$plugin" \
        --swift_out="$out" \
        --swift_opt=Visibility=Internal \
        --swift_opt=FileNaming=PathToUnderscores \
        -I Protos \
        "$@"
    echo "generated: $(ls "$out")"
}
generate Sources/InkwellWire/Generated Protos/inkwell/v1/change.proto Protos/inkwell/v1/pack.proto \
    Protos/inkwell/v1/sync.proto
generate Sources/InkwellBoard/Generated Protos/inkwell/v1/board.proto
