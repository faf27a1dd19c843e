# Shared by .ci/image and .ci/compose (sourced, not run): podman set up the way this machine needs it, the
# Debian base image, and deploy/Dockerfile's runtime stage built around a binary built on the host.
#
# No container registry is reachable from CI, Debian's packages are: the base image is made with debootstrap
# (the same Debian release as the host, so the host's binary finds its glibc) and imported into podman, which
# runs with runc (crun fails on cgroup v1 here) and without podman's default ulimits (the kernel refuses them).
# The debootstrap tarball is kept in ~/.cache/mancala-ci between runs on one machine; podman's own storage
# keeps the images; a run from nothing makes both.

MANCALA_CI_CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/mancala-ci
# The release of deploy/Dockerfile's DEBIAN_RELEASE, and of the host CI builds the binary on.
MANCALA_CI_DEBIAN=bookworm
MANCALA_CI_BASE=localhost/debian:$MANCALA_CI_DEBIAN-slim
CONTAINERS_CONF=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/containers.conf
export CONTAINERS_CONF

# Installs podman, runc and debootstrap from Debian's packages where absent.
containers_tools() {
    local missing=()
    command -v podman >/dev/null || missing+=(podman)
    command -v runc >/dev/null || missing+=(runc)
    command -v debootstrap >/dev/null || missing+=(debootstrap)
    if ((${#missing[@]})); then
        echo "installing ${missing[*]} from Debian's packages"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
    podman --version
}

# The Debian base image, tagged as the name deploy/Dockerfile's FROM resolves to locally ($MANCALA_CI_BASE):
# imported from the cached debootstrap tarball, made first when there is none.
containers_base_image() {
    if podman image exists "$MANCALA_CI_BASE"; then
        echo "base image $MANCALA_CI_BASE: in podman's storage"
        return
    fi
    local tarball=$MANCALA_CI_CACHE/debian-$MANCALA_CI_DEBIAN-minbase.tar
    if [[ ! -s $tarball ]]; then
        echo "debootstrap --variant=minbase $MANCALA_CI_DEBIAN (kept in $MANCALA_CI_CACHE)"
        local root
        root=$(mktemp -d)
        debootstrap --variant=minbase "$MANCALA_CI_DEBIAN" "$root" http://deb.debian.org/debian >"$root.log" 2>&1 ||
            { tail -n 20 "$root.log"; rm -rf "$root" "$root.log"; return 1; }
        # What slim images leave out too: apt's lists and caches, docs and man pages.
        rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/usr/share/doc/* \
            "$root"/usr/share/man/*
        mkdir -p "$MANCALA_CI_CACHE"
        tar -C "$root" -cf "$tarball.part" . && mv "$tarball.part" "$tarball"
        rm -rf "$root" "$root.log"
    fi
    podman import --quiet "$tarball" "$MANCALA_CI_BASE" >/dev/null
    echo "base image $MANCALA_CI_BASE: imported from $tarball"
}

# Builds deploy/Dockerfile's runtime stage, as shipped, around the binary BINARY, tagged TAG. The builder stage
# needs a Rust image no registry here gives; a stand-in stage of the same name supplies what the runtime stage
# takes from it (the binary at /out/mancala, the CA bundle). The runtime stage is cut from the Dockerfile, not
# copied: whatever it ships (user, entrypoint, volume directory, ports) is what is built and run here.
containers_mancala_image() {
    local binary=$1 tag=$2 context
    context=$(mktemp -d)
    install -m 0755 "$binary" "$context/mancala"
    cp /etc/ssl/certs/ca-certificates.crt "$context/ca-certificates.crt"
    python3 - deploy/Dockerfile "$context/Containerfile" <<'PY'
import re, sys

source, target = sys.argv[1], sys.argv[2]
lines = open(source).read().splitlines(keepends=True)
stages = [i for i, line in enumerate(lines) if re.match(r"FROM\s", line, re.I)]
runtime = [i for i in stages if re.search(r"\sAS\s+runtime\s*$", lines[i], re.I)]
if len(runtime) != 1 or runtime[0] != stages[-1]:
    sys.exit(f"{source}: expected the last stage to be `... AS runtime`")
preamble = "".join(lines[: stages[0]])  # the global ARGs every FROM reads
stand_in = (
    "# CI's stand-in for the builder stage: the host's binary, the host's CA bundle.\n"
    "FROM debian:${DEBIAN_RELEASE}-slim AS builder\n"
    "COPY mancala /out/mancala\n"
    "COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt\n\n"
)
open(target, "w").write(preamble + stand_in + "".join(lines[runtime[0]:]))
PY
    podman build --quiet --pull=never --network=none -f "$context/Containerfile" -t "$tag" "$context" >/dev/null
    rm -rf "$context"
    echo "image $tag: deploy/Dockerfile's runtime stage around $binary"
}

# A free TCP port on 127.0.0.1.
containers_free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
