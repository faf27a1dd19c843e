#!/usr/bin/env bash
# What a call costs the server over gRPC, in instructions: the release server runs under callgrind on one core,
# the load generator sends it N calls of each load (ValidateMove, ApplyMove, and the Echo standing for each), and
# the server's instruction count over those calls alone (zeroed before, dumped after) is divided by N.
#
# Unlike calls/s this does not move with whatever else the machine runs, so it is the steady second figure beside
# `mancala loadtest --compare`. It counts the server's own code in user space (HTTP/2, tonic, the handler, the
# allocator), not the kernel's work on the sockets, which both loads share alike.
#
#   cargo build --release && bash benches/server_instructions.sh [CALLS] [BINARY]
#
# To trace a difference between two builds function by function, keep the dumps and send the load from one
# generator for both servers (the load generator's requests are then the same bytes):
#
#   KEEP_DUMPS=/tmp/cg-new LOAD_BINARY=target/release/mancala bash benches/server_instructions.sh 10000 BINARY
#   callgrind_annotate --inclusive=yes /tmp/cg-new/cg.<pid>.<n>   # one dump a load, in the order listed below
#
# Needs valgrind (callgrind_control). Takes about a minute for 10,000 calls a load.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
calls=${1:-10000}
bin=${2:-target/release/mancala}
load_bin=${LOAD_BINARY:-$bin}
port=${PORT:-50098}
out=${KEEP_DUMPS:-$(mktemp -d)}
mkdir -p "$out"
trap 'kill "$server" 2>/dev/null || true; [[ -n ${KEEP_DUMPS:-} ]] || rm -rf "$out"' EXIT

MANCALA__LOG__FILTER=warn MANCALA__MATCHES__STORE=memory MANCALA__ADDRESSES__CALLS_PER_SECOND=0 taskset -c 1 \
    valgrind --tool=callgrind --callgrind-out-file="$out/cg.%p" "$bin" serve --listen "127.0.0.1:$port" \
    >"$out/server.log" 2>&1 &
server=$!
for _ in $(seq 1 600); do
    (echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
    sleep 0.2
done

load() { # calls, then loadtest's own arguments
    local n=$1
    shift
    taskset -c 0 "$load_bin" loadtest --target "http://127.0.0.1:$port" --threads 1 --connections 4 --concurrency 16 \
        --requests "$n" --warmup 0s --timeout 60s --no-progress "$@" >"$out/load.log"
}

echo "server instructions per call over gRPC ($calls calls a load, 4 connections x 16 in flight):"
for case in "ValidateMove:validate=100:" "Echo~ValidateMove:validate=100:--baseline" \
    "ApplyMove:apply=100:" "Echo~ApplyMove:apply=100:--baseline"; do
    IFS=: read -r name mix flag <<<"$case"
    load 2000 --mix "$mix" ${flag:+"$flag"} # warm: the corpus's answers met once, the allocator's pages taken
    callgrind_control --zero "$server" >/dev/null 2>&1
    load "$calls" --mix "$mix" ${flag:+"$flag"}
    callgrind_control --dump="$name" "$server" >/dev/null 2>&1
    sleep 1
    dump=$(ls -t "$out"/cg.* | head -1)
    total=$(awk '/^(summary|totals):/ { print $2; exit }' "$dump")
    printf '  %-18s %8d\n' "$name" $((total / calls))
done
