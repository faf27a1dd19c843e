#!/usr/bin/env bash
# Installs the pinned tools of package-lock.json (buf, protoc-gen-es, TypeScript …) with npm ci, unless
# node_modules already holds exactly that lock's install (npm ci always starts from an empty node_modules).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
if ! cmp -s package-lock.json node_modules/.installed-lock 2>/dev/null; then
    npm ci --no-audit --no-fund --loglevel=error
    cp package-lock.json node_modules/.installed-lock
fi
