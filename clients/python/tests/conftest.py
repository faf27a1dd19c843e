"""The real binary for the tests (MANCALA_BIN, else target/debug/mancala): ``mancala serve --dev`` on a free port
with the memory store, two tenants made through the Admin service (acme with the default limits, tight with one
call per second), and a TCP proxy whose connections a test can cut."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, List

import pytest

from mancala_client import Client, operator_key, pb

ROOT = Path(__file__).resolve().parents[3]


@dataclass
class Server:
    target: str
    acme_key: str
    tight_key: str


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    binary = os.environ.get("MANCALA_BIN", str(ROOT / "target" / "debug" / "mancala"))
    env = dict(os.environ, MANCALA__SERVER__LISTEN="127.0.0.1:0", MANCALA__MATCHES__STORE="memory",
               MANCALA__BOTS__THINK_DELAY_MS="0", MANCALA__LOG__FORMAT="plain", NO_COLOR="1")
    child = subprocess.Popen([binary, "serve", "--dev"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True)
    log: List[str] = []
    found = threading.Event()
    address: List[str] = []

    def read() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            log.append(line)
            match = re.search(r"listening addr=([0-9.:]+)", re.sub(r"\x1b\[[0-9;]*m", "", line))
            if match and not found.is_set():
                address.append(match.group(1))
                found.set()

    threading.Thread(target=read, daemon=True).start()
    if not found.wait(30):
        child.kill()
        raise RuntimeError("the server did not say it listens:\n" + "".join(log))
    target = address[0]
    with Client(target, operator_key("mo_dev-loopback-only")) as admin:
        acme = admin.admin.CreateTenant(pb.CreateTenantRequest(tenant_id="acme", name="Acme Games"))
        tight = admin.admin.CreateTenant(pb.CreateTenantRequest(
            tenant_id="tight", name="Tight", limits=pb.TenantLimits(calls_per_second=1, burst=1)))
    try:
        yield Server(target, acme.api_key, tight.api_key)
    finally:
        child.terminate()
        child.wait(10)


class Proxy:
    """A TCP proxy to the server; :meth:`cut` destroys every open connection, as a network failure would."""

    def __init__(self, target: str) -> None:
        host, port = target.rsplit(":", 1)
        self._upstream = (host, int(port))
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.target = f"127.0.0.1:{self._listener.getsockname()[1]}"
        self._open: List[socket.socket] = []
        self._frozen: List[socket.socket] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self._upstream)
            with self._lock:
                self._open += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                if a not in self._frozen:
                    b.sendall(data)
        except OSError:
            pass
        for s in (a, b):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self) -> int:
        """Closes every open connection (both sides); returns how many client connections were cut."""
        with self._lock:
            sockets, self._open = self._open, []
        for s in sockets:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()
        return len(sockets) // 2

    def freeze(self) -> int:
        """Stops forwarding on every open connection without closing it (a dead NAT: bytes go nowhere, no reset);
        new connections work as before. Returns how many client connections were frozen."""
        with self._lock:
            self._frozen += self._open
            return len(self._open) // 2

    def close(self) -> None:
        self.cut()
        self._listener.close()


@pytest.fixture
def proxy(server: Server) -> Iterator[Proxy]:
    p = Proxy(server.target)
    try:
        yield p
    finally:
        p.close()


def player_tokens(server: Server, *players: str) -> List[str]:
    """Player tokens for acme's players, minted as an app's backend does: with the tenant's API key."""
    from mancala_client import api_key

    with Client(server.target, api_key(server.acme_key)) as backend:
        return [backend.players.IssuePlayerToken(pb.IssuePlayerTokenRequest(player_id=p, ttl_seconds=600)).token
                for p in players]


def new_match(client: Client) -> "pb.Match":
    """A one-game Ba-awa match between acme's ann (South) and bob (North)."""
    created = client.matches.CreateMatch(pb.CreateMatchRequest(
        kind=pb.GAME_KIND_BA_AWA, options=pb.GameOptions(max_games=1),
        players=[pb.SeatPlayer(player=pb.PLAYER_SOUTH, player_id="ann"),
                 pb.SeatPlayer(player=pb.PLAYER_NORTH, player_id="bob")]))
    return created.match


def wait_until(condition, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.02)


class Table:
    """Ann (South) and Bob (North) at a match, each on his own client: ``play_one`` plays the first legal move of the
    seat to move, at the match's version."""

    def __init__(self, ann: Client, bob: Client, match: "pb.Match") -> None:
        self.ann, self.bob, self.match = ann, bob, match

    def play_one(self) -> None:
        seat = self.ann if self.match.state.to_move == pb.PLAYER_SOUTH else self.bob
        seat.submit_move(self.match.match_id, self.match.legal_moves[0], expected_version=self.match.version)
        self.match = self.ann.matches.GetMatch(pb.GetMatchRequest(match_id=self.match.match_id)).match
