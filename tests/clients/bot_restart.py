#!/usr/bin/env python3
"""A bot killed in the middle of a match and restarted recovers and finishes it (lobby.proto, "Resuming never loses
a match"): the example Python bot (examples/python_bot/bot.py) as a real process, over a real channel.

The tenant's backend (its API key) mints two players' tokens. The bot starts with a --state-file and waits; this
script challenges it to an unrated Bao la Kete match (long enough to be caught in the middle) and plays the other
seat with random legal moves. After the bot's first moves it is killed (SIGKILL: no goodbye), this side moves while
it is down, and it is started again with the same state file, whose saved event id is past the match's start: the
stream restates the unfinished match and the bot goes on playing it. Later it is killed again and started with no
state at all. The match must end played out (not expired, not abandoned), and the bot must exit 0 by itself after
it (--max-matches 1).

    PYTHONPATH=examples/python_bot python3 tests/clients/bot_restart.py HOST:PORT API_KEY
"""

import os
import random
import signal
import subprocess
import sys
import tempfile
import time

import grpc

from stubs import game_pb2, lobby_pb2, lobby_pb2_grpc, matches_pb2, matches_pb2_grpc, players_pb2, players_pb2_grpc

BOT = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python_bot", "bot.py")
BETWEEN_GAMES = (game_pb2.STATUS_GAME_OVER, game_pb2.STATUS_ROUND_OVER)
# The kills, by the match's version when it is this side's turn: the bot has just moved.
FIRST_KILL, SECOND_KILL = 6, 16


def log(*words):
    print(time.strftime("%H:%M:%S"), "[restart test]", *words, flush=True)


class Bot:
    """The example bot as a child process, its output in a file."""

    def __init__(self, address, token, workdir):
        self.address, self.token, self.workdir = address, token, workdir
        self.state_file = os.path.join(workdir, "bot.state")
        self.process, self.runs = None, 0

    def start(self, with_state):
        self.runs += 1
        out = open(os.path.join(self.workdir, f"bot-{self.runs}.log"), "w", encoding="utf-8")
        args = [sys.executable, BOT, "--server", self.address, "--token", self.token, "--max-matches", "1",
                "--seed", str(self.runs)]
        if with_state:
            args += ["--state-file", self.state_file]
        self.process = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT)
        self.wait_for_log("waiting for challenges")
        log(f"bot started ({'state file ' + open_or_empty(self.state_file) if with_state else 'no state'})")

    def wait_for_log(self, text, seconds=60):
        deadline = time.time() + seconds
        while time.time() < deadline:
            if text in self.output():
                return
            if self.process.poll() is not None:
                raise SystemExit(f"the bot exited ({self.process.returncode}) before {text!r}:\n{self.output()}")
            time.sleep(0.05)
        raise SystemExit(f"the bot never logged {text!r}:\n{self.output()}")

    def output(self):
        with open(os.path.join(self.workdir, f"bot-{self.runs}.log"), encoding="utf-8") as run:
            return run.read()

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        log(f"bot killed at run {self.runs}")


def open_or_empty(path):
    try:
        with open(path, encoding="utf-8") as saved:
            return saved.read().strip() or "(empty)"
    except FileNotFoundError:
        return "(none)"


def main():
    address, api_key = sys.argv[1:3]
    channel = grpc.insecure_channel(address)
    backend = (("authorization", f"Bearer {api_key}"),)
    players = players_pb2_grpc.PlayersStub(channel)

    def token(player):
        return players.IssuePlayerToken(players_pb2.IssuePlayerTokenRequest(player_id=player, ttl_seconds=3600),
                                        metadata=backend, timeout=10).token

    bot_token, my_token = token("restarted-bot"), token("restart-challenger")
    me = (("authorization", f"Bearer {my_token}"),)
    lobby, matches = lobby_pb2_grpc.LobbyStub(channel), matches_pb2_grpc.MatchesStub(channel)
    rng = random.Random(7)

    with tempfile.TemporaryDirectory() as workdir:
        bot = Bot(address, bot_token, workdir)
        bot.start(with_state=True)
        challenge = lobby.CreateChallenge(lobby_pb2.CreateChallengeRequest(
            to_player_id="restarted-bot", kind=game_pb2.GAME_KIND_BAO_LA_KETE,
            seat=lobby_pb2.SEAT_PREFERENCE_SOUTH), metadata=me, timeout=10).challenge
        events = lobby.WatchPlayerEvents(lobby_pb2.WatchPlayerEventsRequest(), metadata=me, timeout=300)
        started = next(e.match_started for e in events
                       if e.HasField("match_started") and e.match_started.challenge_id == challenge.challenge_id)
        events.cancel()
        match_id, seat = started.match_id, started.seat
        log(f"match {match_id}: this side plays {game_pb2.Player.Name(seat)}")

        kills = [(FIRST_KILL, True), (SECOND_KILL, False)]  # (version, restart with the state file)
        restarts = 0
        ended = None
        while ended is None:
            stream = matches.WatchMatch(matches_pb2.WatchMatchRequest(match_id=match_id), metadata=me, timeout=300)
            for update in stream:
                kind = update.WhichOneof("kind")
                if kind == "snapshot":
                    m = update.snapshot.match
                    version, state, moves = m.version, m.state, m.legal_moves
                elif kind == "event":
                    version, state, moves = update.event.seq, update.event.state, update.event.legal_moves
                elif kind == "finished":
                    ended = update.finished
                    break
                else:
                    continue
                if not moves or not (state.to_move == seat or state.status in BETWEEN_GAMES):
                    continue
                if kills and state.to_move == seat and version >= kills[0][0]:
                    _, with_state = kills.pop(0)
                    bot.kill()
                    # This side moves while the bot is down: the match goes on without it.
                    submit(matches, me, match_id, version, rng.choice(list(moves)), seat)
                    bot.start(with_state)
                    restarts += 1
                    stream.cancel()
                    break
                submit(matches, me, match_id, version, rng.choice(list(moves)), seat)
            else:
                continue
        if kills:
            raise SystemExit(f"the match ended before the bot was killed {len(kills)} more time(s): "
                             f"raise the kill versions' chance, lower FIRST_KILL/SECOND_KILL")
        reason = matches_pb2.MatchEndReason.Name(ended.result.reason)
        log(f"match over: {reason}, after {restarts} restarts")
        if ended.result.reason in (matches_pb2.MATCH_END_REASON_EXPIRED, matches_pb2.MATCH_END_REASON_ABANDONED):
            raise SystemExit(f"the match ended {reason}: the restarted bot did not finish it")
        try:
            status = bot.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            raise SystemExit(f"the bot did not stop after its match:\n{bot.output()}") from None
        print(bot.output(), end="")
        if status != 0:
            raise SystemExit(f"the restarted bot exited with {status}")
        if f"match {match_id} over" not in bot.output():
            raise SystemExit("the restarted bot was not told the match it finished was over")
        log("ok: the bot, killed twice mid-match and restarted (from its state file, then from nothing), "
            "finished the match")


def submit(matches, me, match_id, version, move, seat):
    request = matches_pb2.SubmitMoveRequest(match_id=match_id, move=move, expected_version=version,
                                            request_id=f"{game_pb2.Player.Name(seat)}-{version}")
    try:
        matches.SubmitMove(request, metadata=me, timeout=10)
    except grpc.RpcError as error:
        # ABORTED: the bot's `NextGame` came first between games; the stream brings the new state.
        if error.code() != grpc.StatusCode.ABORTED:
            raise


if __name__ == "__main__":
    main()
