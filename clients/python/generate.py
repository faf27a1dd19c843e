"""Regenerates src/mancala_client/_proto/ from ../../proto with grpc_tools.protoc (messages, gRPC stubs and .pyi
type stubs), then rewrites the generated imports (`from mancala.v1 import game_pb2`) to the package's own path,
so that the stubs live inside mancala_client instead of claiming a top-level `mancala` package.

Run: python3 generate.py (grpcio-tools pinned in requirements-dev.txt: its output is committed, and
.ci/client-libraries checks that it matches what this script makes).
"""

import re
import shutil
import sys
from pathlib import Path

from grpc_tools import protoc

HERE = Path(__file__).resolve().parent
PROTO = HERE.parent.parent / "proto"
OUT = HERE / "src" / "mancala_client" / "_proto"


def main() -> int:
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    files = sorted(str(p.relative_to(PROTO)) for p in (PROTO / "mancala" / "v1").glob("*.proto"))
    include = str(Path(protoc.__file__).parent / "_proto")
    args = ["protoc", f"-I{PROTO}", f"-I{include}", f"--python_out={OUT}", f"--pyi_out={OUT}",
            f"--grpc_python_out={OUT}", *files]
    if protoc.main(args) != 0:
        print("protoc failed", file=sys.stderr)
        return 1
    for path in sorted(OUT.rglob("*.py*")):
        text = path.read_text()
        text = re.sub(r"^from mancala\.v1 import", "from mancala_client._proto.mancala.v1 import", text, flags=re.M)
        path.write_text(text)
    for package in (OUT, OUT / "mancala", OUT / "mancala" / "v1"):
        (package / "__init__.py").write_text("")
    return 0


if __name__ == "__main__":
    sys.exit(main())
