#!/usr/bin/env bash
# Regenerates shared/formats/sbk/sbk_pb.ts from sbk.proto with buf + protoc-gen-es
# (both devDependencies; no network). The generated file is committed.
set -euo pipefail
cd "$(dirname "$0")/../shared/formats/sbk"
PATH="$(cd ../../.. && pwd)/node_modules/.bin:$PATH" buf generate --template buf.gen.yaml .
