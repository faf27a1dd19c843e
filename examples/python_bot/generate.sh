#!/usr/bin/env bash
# Generates the Python stubs of the service's protos into ./generated (not committed; bot.py also does this by
# itself when the folder is missing or older than the protos).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
protos="$here/../../proto"
rm -rf "$here/generated"
mkdir -p "$here/generated"
python3 -m grpc_tools.protoc -I "$protos" --python_out="$here/generated" --grpc_python_out="$here/generated" \
    "$protos"/mancala/v1/*.proto
echo "generated $(find "$here/generated" -name '*.py' | wc -l) modules in $here/generated"
