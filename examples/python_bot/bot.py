#!/usr/bin/env python3
"""An example bot for the mancala lobby: it accepts the challenges sent to it and plays every match that starts.

    pip install -r requirements.txt
    python3 bot.py --server 127.0.0.1:50051 --token "$PLAYER_TOKEN"              # random legal moves
    python3 bot.py --server HOST:443 --ca ca.pem --token ... --suggest --level 4  # the server's search plays
    python3 bot.py ... --games bosh,ba-awa --max-matches 3                      # only some games; stop after 3
    python3 bot.py ... --tournament ID                                          # enter it, play it, stop at its end

The token is a player token that the tenant's backend asked for (Players.IssuePlayerToken); it is sent as
`authorization: Bearer <token>` with every call. `run()` below is the whole bot; everything under it is the
plumbing a bot author rarely needs to change.
"""

import argparse
import os
import random
import sys
import threading
import time

import grpc

from stubs import (game_pb2, lobby_pb2, lobby_pb2_grpc, matches_pb2, matches_pb2_grpc, players_pb2, players_pb2_grpc,
                   rules_pb2, rules_pb2_grpc, tournaments_pb2, tournaments_pb2_grpc)

PENDING = lobby_pb2.CHALLENGE_STATUS_PENDING
TOURNAMENT_OVER = lobby_pb2.TOURNAMENT_EVENT_KIND_FINISHED


def run(bot):
    """The bot: answer challenges, play the matches they start, stop after --max-matches finished ones (or at the
    end of the --tournament it entered)."""
    if bot.tournament and not bot.enter(bot.tournament):  # its matches arrive as any other: `match_started`
        return bot.close()
    for event in bot.events():  # Lobby.WatchPlayerEvents, resumed after its last event if the connection drops
        kind = event.WhichOneof("event")
        if kind == "challenge" and event.challenge.status == PENDING and event.challenge.to_player_id == bot.me:
            if bot.likes(event.challenge):
                bot.accept(event.challenge)  # the server creates the match: `match_started` comes next
            else:
                bot.decline(event.challenge, lobby_pb2.DECLINE_REASON_GAME)
        elif kind == "match_started":
            # Also on every (re)connect, for each unfinished match (`restated`): a restarted bot finds its games.
            bot.play_in_background(event.match_started)  # WatchMatch, and SubmitMove whenever the seat is due
        elif kind == "match_finished":
            bot.record(event.match_finished)
            if bot.max_matches and bot.finished >= bot.max_matches:
                break
        elif kind == "tournament":
            bot.heard(event.tournament)
            if event.tournament.kind == TOURNAMENT_OVER and event.tournament.tournament_id == bot.tournament:
                break
    bot.close()


# ---------------------------------------------------------------------------------------------------------------
# The plumbing.

GAMES = {
    "bao-la-kete": game_pb2.GAME_KIND_BAO_LA_KETE,
    "bosh": game_pb2.GAME_KIND_BOSH,
    "ba-awa": game_pb2.GAME_KIND_BA_AWA,
}
BETWEEN_GAMES = (game_pb2.STATUS_GAME_OVER, game_pb2.STATUS_ROUND_OVER)
# Errors that mean "reconnect and go on" rather than "stop": the server restarting or a network hiccup.
TRANSIENT = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.INTERNAL)


def log(*words):
    print(time.strftime("%H:%M:%S"), *words, flush=True)


def name(enum, number):
    return enum.Name(number)


class Bot:
    def __init__(self, channel, token, me, games, suggest, level, max_matches, state_file, seed, tournament=None):
        self.metadata = (("authorization", f"Bearer {token}"),)
        self.lobby = lobby_pb2_grpc.LobbyStub(channel)
        self.tournaments = tournaments_pb2_grpc.TournamentsStub(channel)
        self.tournament = tournament
        self.matches = matches_pb2_grpc.MatchesStub(channel)
        self.rules = rules_pb2_grpc.RulesStub(channel)
        self.me, self.games, self.suggest, self.level = me, games, suggest, level
        self.max_matches, self.finished = max_matches, 0
        self.state_file = state_file
        self.last_event_id = read_last_event_id(state_file)
        self.random = random.Random(seed)
        self.threads, self.failures = [], []
        self.playing = set()  # the matches a thread plays: a restated `match_started` starts no second one
        self.stream, self.closing = None, False

    # -- the player's event stream --------------------------------------------------------------------------

    def events(self):
        """Every event of the player's stream but heartbeats, resuming after the last one on a reconnect.

        Each (re)connect begins with what stands for the bot, `restated`: its unfinished matches, pending challenges
        and open seeks, as the events that made them, whatever `after_event_id` is. Their ids are older than the
        resume point, so they are not remembered as one; the heartbeat after them is."""
        pause = 1.0
        while not self.closing:
            request = lobby_pb2.WatchPlayerEventsRequest(after_event_id=self.last_event_id)
            self.stream = self.lobby.WatchPlayerEvents(request, metadata=self.metadata)
            try:
                for event in self.stream:
                    pause = 1.0
                    if event.HasField("heartbeat"):
                        # The heartbeat's id is a valid resume point too: everything up to it has been passed.
                        self.remember(max(self.last_event_id, event.heartbeat.last_event_id))
                        continue
                    if not event.restated:
                        self.remember(event.event_id)
                    yield event
                log("the event stream ended; reconnecting")
            except grpc.RpcError as error:
                if self.closing and error.code() == grpc.StatusCode.CANCELLED:
                    return
                if error.code() not in TRANSIENT:
                    raise
                log(f"event stream: {error.code().name} ({error.details()}); resuming after {self.last_event_id}")
            time.sleep(pause)
            pause = min(pause * 2, 30.0)

    def remember(self, event_id):
        self.last_event_id = event_id
        if self.state_file:
            with open(self.state_file, "w", encoding="utf-8") as out:
                out.write(f"{event_id}\n")

    # -- challenges ---------------------------------------------------------------------------------------------

    def likes(self, challenge):
        return not self.games or challenge.kind in self.games

    def accept(self, challenge):
        log(f"challenge {challenge.challenge_id} from {challenge.from_player_id}: "
            f"{name(game_pb2.GameKind, challenge.kind)}{' rated' if challenge.rated else ''}; accepting")
        try:
            self.lobby.AcceptChallenge(lobby_pb2.AcceptChallengeRequest(challenge_id=challenge.challenge_id),
                                       metadata=self.metadata, timeout=10)
        except grpc.RpcError as error:
            # Cancelled, expired or already answered (a replayed event after a restart): nothing to do.
            if error.code() not in (grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.NOT_FOUND):
                raise
            log(f"  too late: {error.details()}")

    def decline(self, challenge, reason):
        log(f"challenge {challenge.challenge_id} from {challenge.from_player_id}: "
            f"{name(game_pb2.GameKind, challenge.kind)}; declining ({name(lobby_pb2.DeclineReason, reason)})")
        try:
            self.lobby.DeclineChallenge(
                lobby_pb2.DeclineChallengeRequest(challenge_id=challenge.challenge_id, reason=reason),
                metadata=self.metadata, timeout=10)
        except grpc.RpcError as error:
            if error.code() not in (grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.NOT_FOUND):
                raise

    # -- tournaments ----------------------------------------------------------------------------------------

    def enter(self, tournament_id):
        """Enters the tournament; False if it is over (nothing to play)."""
        try:
            self.tournaments.EnterTournament(tournaments_pb2.EnterTournamentRequest(tournament_id=tournament_id),
                                             metadata=self.metadata, timeout=10)
            log(f"entered tournament {tournament_id}")
        except grpc.RpcError as error:
            if error.code() != grpc.StatusCode.FAILED_PRECONDITION:
                raise
            # A restarted bot entered before: it plays on (its stream restates its round and its match).
            if "entered already" in error.details():
                log(f"tournament {tournament_id}: entered already")
                return True
            got = self.tournaments.GetTournament(tournaments_pb2.GetTournamentRequest(tournament_id=tournament_id),
                                                 metadata=self.metadata, timeout=10).tournament
            if got.status != tournaments_pb2.TOURNAMENT_STATUS_FINISHED:
                raise
            log(f"tournament {tournament_id} is over")
            return False
        return True

    def heard(self, news):
        kind = news.kind
        if kind == lobby_pb2.TOURNAMENT_EVENT_KIND_ROUND_PAIRED:
            where = ("the bye" if news.bye else
                     f"match {news.match_id} as {name(game_pb2.Player, news.seat)} against {news.opponent_entrant_id}"
                     if news.match_id else "no game this round")
            log(f"tournament {news.tournament_id}, round {news.round}: {where}")
        elif kind == TOURNAMENT_OVER:
            log(f"tournament {news.tournament_id} over: rank {news.rank} with {news.points:g} points")

    # -- matches --------------------------------------------------------------------------------------------

    def play_in_background(self, started):
        if started.match_id in self.playing:
            return
        self.playing.add(started.match_id)
        opponent = started.opponent
        who = opponent.player_id or f"the server's level-{opponent.bot_level} opponent"
        log(f"match {started.match_id}: {name(game_pb2.GameKind, started.kind)} as "
            f"{name(game_pb2.Player, started.seat)} against {who}"
            f"{' (a bot account)' if opponent.is_bot_account else ''}, rated {started.rated}")

        def play():
            try:
                self.play(started.match_id, started.seat)
            except Exception as error:  # noqa: BLE001 (the bot stops, and fails)
                log(f"match {started.match_id}: FAILED: {error!r}")
                self.failures.append((started.match_id, error))
                self.stop()

        thread = threading.Thread(target=play, name=started.match_id, daemon=True)
        thread.start()
        self.threads.append(thread)

    def play(self, match_id, seat):
        """Follows the match and plays `seat` whenever it is due, until the match is over."""
        pause = 1.0
        while True:
            # Without from_seq the stream starts with a snapshot: after a reconnect too, the bot sees where the
            # match stands (a move sent before the break is either in it or was never accepted).
            stream = self.matches.WatchMatch(matches_pb2.WatchMatchRequest(match_id=match_id), metadata=self.metadata)
            try:
                for update in stream:
                    kind = update.WhichOneof("kind")
                    if kind == "snapshot":
                        m = update.snapshot.match
                        version, state, moves = m.version, m.state, m.legal_moves
                    elif kind == "event":
                        e = update.event
                        version, state, moves = e.seq, e.state, e.legal_moves
                    elif kind == "finished":
                        return
                    else:
                        continue  # heartbeats and the seats' presence
                    if moves and (state.to_move == seat or state.status in BETWEEN_GAMES):
                        self.move(match_id, version, state, moves, seat)
                return
            except grpc.RpcError as error:
                if error.code() == grpc.StatusCode.NOT_FOUND:
                    return  # a finished match deleted after its retention (an old event replayed): nothing to play
                if error.code() not in TRANSIENT:
                    raise
                log(f"match {match_id}: {error.code().name}; watching again")
                time.sleep(pause)
                pause = min(pause * 2, 30.0)

    def move(self, match_id, version, state, moves, seat):
        """Plays one move at `version`: the first of the two seats to send `NextGame` between games wins."""
        move = self.choose(state, moves, seat)
        # The request id makes a retry safe (the server applies it once); it is the match's, hence the seat in it.
        request = matches_pb2.SubmitMoveRequest(match_id=match_id, move=move, expected_version=version,
                                                request_id=f"{name(game_pb2.Player, seat)}-{version}")
        try:
            for attempt in range(50):
                try:
                    self.matches.SubmitMove(request, metadata=self.metadata, timeout=10)
                    break
                except grpc.RpcError as error:
                    # Past the player's share of calls per second (limits.calls_per_second_per_player): wait a
                    # little and send the same request again (its id makes the retry safe).
                    if error.code() != grpc.StatusCode.RESOURCE_EXHAUSTED or attempt == 49:
                        raise
                    time.sleep(0.05 * (attempt + 1))
        except grpc.RpcError as error:
            # ABORTED: the match moved on first (the opponent's `NextGame`); the stream brings the new state.
            # FAILED_PRECONDITION "MATCH_OVER": the opponent resigned meanwhile. PERMISSION_DENIED for a
            # `NextGame`: the server's own opponent (a seek's fallback) is the one to choose; wait for its event.
            refused_next_game = error.code() == grpc.StatusCode.PERMISSION_DENIED and move.HasField("next_game")
            if error.code() not in (grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION) \
                    and not refused_next_game:
                raise
            if error.code() != grpc.StatusCode.ABORTED:  # that one is the usual race for `NextGame`
                log(f"match {match_id}: move at version {version} not taken: {error.code().name}: {error.details()}")

    def choose(self, state, moves, seat):
        if not self.suggest:
            return self.random.choice(list(moves))
        # The server's own search (Rules.SuggestMove) on the match's state; between games it chooses the opening.
        request = rules_pb2.SuggestMoveRequest(state=state, level=self.level, skip_preview=True,
                                               seed=self.random.getrandbits(63))
        if state.status in BETWEEN_GAMES:
            request.seat = seat
        return self.rules.SuggestMove(request, metadata=self.metadata, timeout=30).move

    def record(self, finished):
        self.finished += 1
        result = finished.result
        outcome = ("a draw" if result.winner == game_pb2.PLAYER_UNSPECIFIED
                   else "won" if result.winner == finished.seat else "lost")
        changes = ", ".join(f"{c.player_id} {c.before:.0f} -> {c.after:.0f}" for c in finished.rating_changes)
        log(f"match {finished.match_id} over: {outcome} ({name(matches_pb2.MatchEndReason, result.reason)})"
            f"{'; ratings ' + changes if changes else ''} [{self.finished} finished]")

    def stop(self):
        """Ends the event stream (and so `run`'s loop)."""
        self.closing = True
        if self.stream is not None:
            self.stream.cancel()

    def close(self):
        self.stop()
        for thread in self.threads:
            thread.join(timeout=60)


def read_last_event_id(path):
    try:
        with open(path, encoding="utf-8") as saved:
            return int(saved.read().strip() or 0)
    except (TypeError, FileNotFoundError):
        return 0


def player_of(channel, token):
    """The player id the token speaks for, as the server reads it (Players.WhoAmI)."""
    players = players_pb2_grpc.PlayersStub(channel)
    # wait_for_ready: a server started a moment before (`mancala serve --dev &`) is waited for, not refused.
    me = players.WhoAmI(players_pb2.WhoAmIRequest(), metadata=(("authorization", f"Bearer {token}"),), timeout=30,
                        wait_for_ready=True)
    if not me.player_id:
        raise SystemExit("--token is not a player token (Players.IssuePlayerToken)")
    return me.player_id


def connect(address, ca_file):
    if ca_file is None:
        return grpc.insecure_channel(address)
    with open(ca_file, "rb") as ca:
        return grpc.secure_channel(address, grpc.ssl_channel_credentials(root_certificates=ca.read()))


def main():
    parser = argparse.ArgumentParser(description="An example mancala bot: accepts challenges and plays them.")
    parser.add_argument("--server", default=os.environ.get("MANCALA_SERVER", "127.0.0.1:50051"),
                        help="HOST:PORT (default: $MANCALA_SERVER or 127.0.0.1:50051)")
    parser.add_argument("--token", default=os.environ.get("MANCALA_PLAYER_TOKEN"),
                        help="the bot's player token (default: $MANCALA_PLAYER_TOKEN)")
    parser.add_argument("--ca", metavar="FILE", default=os.environ.get("MANCALA_CA"),
                        help="connect over TLS trusting this CA (PEM) (default: $MANCALA_CA; none: plaintext)")
    parser.add_argument("--games", default="",
                        help=f"accept only these games, comma-separated ({', '.join(GAMES)}); decline the rest")
    parser.add_argument("--suggest", action="store_true",
                        help="ask the server's built-in opponent for each move (Rules.SuggestMove), not random")
    parser.add_argument("--level", type=int, default=2, help="the level for --suggest (1 to 6; default 2)")
    parser.add_argument("--max-matches", type=int, default=0, metavar="N",
                        help="exit after N finished matches (default 0: run until stopped)")
    parser.add_argument("--state-file", metavar="FILE",
                        help="keep the last event id here and resume after it when restarted")
    parser.add_argument("--seed", type=int, help="seed of the random moves")
    parser.add_argument("--tournament", metavar="ID",
                        help="enter this tournament (Tournaments.EnterTournament), play it, and exit when it ends")
    args = parser.parse_args()
    if not args.token:
        parser.error("a player token is needed: --token or $MANCALA_PLAYER_TOKEN")
    try:
        games = {GAMES[g.strip()] for g in args.games.split(",") if g.strip()}
    except KeyError as unknown:
        parser.error(f"unknown game {unknown}; known: {', '.join(GAMES)}")

    channel = connect(args.server, args.ca)
    me = player_of(channel, args.token)
    bot = Bot(channel, args.token, me, games, args.suggest, args.level, args.max_matches, args.state_file,
              args.seed, args.tournament)
    log(f"{me} on {args.server}: waiting for challenges (after event {bot.last_event_id})")
    try:
        run(bot)
    except KeyboardInterrupt:
        bot.close()
    if bot.failures:
        log(f"{len(bot.failures)} match(es) failed")
        sys.exit(1)
    log(f"done: {bot.finished} match(es) finished")


if __name__ == "__main__":
    main()
