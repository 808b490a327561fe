#!/usr/bin/env bash
# Regenerates shared/formats/sbk/sbk_pb.ts from sbk.proto (ShogiGUI/BookConv, CC0) with protoc
# (Debian's protobuf-compiler) and the protoc-gen-es plugin (a devDependency). The generated
# file is committed, so neither is needed to build or test horu.
set -euo pipefail
cd "$(dirname "$0")/../shared/formats/sbk"
plugin="$(cd ../../.. && pwd)/node_modules/.bin/protoc-gen-es"
protoc --plugin=protoc-gen-es="$plugin" --es_out=. --es_opt=target=ts,import_extension=js sbk.proto
