// Server-held matches: the server keeps the state of each match, checks who may move, numbers every accepted
// event and streams them to players and spectators.
//
// Tenants. Every match belongs to the tenant whose credential created it (`authorization: Bearer <API key or
// player token>`; see admin.proto and players.proto). Only that tenant's callers can see it: to anyone else it is
// NOT_FOUND, as if it did not exist, and `ListMatches` lists the caller's tenant's matches only. On a server that
// does not require auth, a call without a credential belongs to the anonymous tenant.
//
// Seats. `CreateMatch` can bind a seat to a player of the tenant (`players`): any valid player token of that
// player acts for the seat. Every other seat gets a secret token, answered once (South, North). A player proves
// his seat by sending his player token or his seat token as `authorization: Bearer <token>`; a seat token alone
// is enough to read, watch and play its own match. Callers of the tenant without a seat are spectators: they may
// read (`GetMatch`, `ListMatches`, `GetHistory`, `WatchMatch`) but not play. The server keeps only a SHA-256 hash
// of each token and never logs one; a lost token cannot be recovered.
//
// Bots. `CreateMatch` can give a seat (or both) to the server's own opponent (`bots`), a built-in search of a
// level from 1 (random moves) to 6 (the longest search; a server may allow less, `bots.max_level`). Such a seat has
// no token and no player: the server plays it, after a short think delay (`bots.think_delay_ms`), including
// between games when that seat is the one that chooses the next game's opening (see `Seat.bot_level`). Its
// events are ordinary events of the log: watch the match (`WatchMatch`) to see them, then answer with
// `SubmitMove`. A seed (`SeatBot.seed`) makes the bot's play reproducible: the same history gives the same
// moves.
//
// Versions. Every accepted event (a move or a resignation) gets the next `seq`, 1, 2, 3 …; a match's `version`
// is the number of accepted events, i.e. the `seq` of the last one (0 for a new match). A client that sends
// `expected_version` gets ABORTED if the match has moved on, so two players never both act on the same state.
//
// Who may submit what:
// - a sowing: only the seat to move (`GameState.to_move`);
// - `NextGame` (the step between games of Ba-awa and Bao la Kete, and between rounds of Bosh): any seat, the
//   first accepted wins (send `expected_version` to avoid races). With no `pits` it is the rules' default and any
//   seat may send it; `pits` is a choice, accepted only from the seat the rules name (docs/guide/matches.md,
//   "Who chooses between games"): in Ba-awa the player who won more than six pits chooses the opponent's pits
//   he takes (docs/ba-awa.md §4.4 step 3; three players choose nothing, §4.7); in Bosh each player chooses
//   only his own holes (docs/bosh.md §3.4 step 4), so a seat's `NextGame` lists holes of its own row alone and
//   the other row gets the default fill. When the seat that chooses is a bot (Ba-awa: the player who won more
//   than six pits; otherwise the player who starts the next game), only the bot sends it;
// - `Resign`: either seat, at any time before the match is over; the other seat wins the match.
// - `Abort`: either seat, until each seat has sown once; the match ends with no result.
// - `ClaimVictory`: the seat not to move, when the seat to sow (a person's seat) has had no open `WatchMatch`
//   stream on any server for `clock.abandon_after_ms`; the claimant wins. Not between games (either seat may
//   start the next game) nor before the clocks start (abort instead).
//
// Clocks (`TimeControl`): the server keeps the time. A sowing that arrives after the mover's time ran out is
// refused (FAILED_PRECONDITION, reason "OUT_OF_TIME") and the match ends on time at once.
//
// Errors (google.rpc details, domain "mancala.v1"):
// - INVALID_ARGUMENT with google.rpc.BadRequest: a malformed request (bad match id, unset enum, bad move field,
//   a `request_id` reused for a different request).
// - UNAUTHENTICATED: a move or resignation without a token, or with a token that is not one of the match's seats
//   (also `WatchMatch` with a wrong token); any call without a credential on a server that requires auth, or
//   with a revoked key, an expired or forged player token.
// - PERMISSION_DENIED: a valid seat token, but not that seat's turn to sow (the message says when the seat to
//   move is the server's bot), or a `NextGame` that a bot seat is to send; a player token of a player with no
//   seat in the match; `ListMatches` with a bare seat token.
// - NOT_FOUND: no such match (or it was deleted after its retention), or another tenant's match.
// - RESOURCE_EXHAUSTED: the tenant is over its calls per second (google.rpc.RetryInfo says when to retry,
//   google.rpc.QuotaFailure which limit), its unfinished matches, or its spectator streams.
// - ABORTED with google.rpc.ErrorInfo reason "VERSION_MISMATCH", metadata["current_version"]: a stale
//   `expected_version`.
// - FAILED_PRECONDITION with google.rpc.ErrorInfo: an illegal move, with exactly the reasons of the Rules service
//   (`IllegalMoveReason` without its prefix, metadata["pit"]); "NOT_YOUR_CHOICE" for a `NextGame` whose `pits`
//   choose for another seat (metadata["seat"] the sender, ["chooser"] the seat whose choice it is, as `Player`
//   names, and ["rule"] the clause); "MATCH_OVER" for anything after the match ended;
//   "OUT_OF_TIME" for a sowing after the mover's time ran out (metadata["flag_at_ms"]); "ABORT_TOO_LATE" for an
//   `Abort` once each seat has sown; "NOT_ABANDONED" for a `ClaimVictory` the server cannot grant
//   (metadata["claimable_at_ms"] when it will be, if the seat to move stays away); for `AgreeToEnd`:
//   "NO_GAME_IN_PLAY" (between games), "NOT_IN_GAME" (an eliminated seat), "NO_OFFER_STANDING" (accept or decline
//   with no offer of another seat), "ALREADY_AGREED", "NO_OFFER_TO_WITHDRAW".
// - OUT_OF_RANGE: `WatchMatch.from_seq` beyond the match's version.
// - RESOURCE_EXHAUSTED: too many watchers on the match or on the server (and the tenant's limits above).
// - UNIMPLEMENTED: a game whose rules this server does not have yet.
// - UNAVAILABLE: the server is shutting down (open streams end with it; resume elsewhere from the last `seq`).

// @generated by protoc-gen-es v2.17.0 with parameter "target=ts,import_extension=js"
// @generated from file mancala/v1/matches.proto (package mancala.v1, syntax proto3)
/* eslint-disable */

import type { GenEnum, GenFile, GenMessage, GenService } from "@bufbuild/protobuf/codegenv2";
import { enumDesc, fileDesc, messageDesc, serviceDesc } from "@bufbuild/protobuf/codegenv2";
import type { Event, GameKind, GameState, Move, Player } from "./game_pb.js";
import { file_mancala_v1_game } from "./game_pb.js";
import type { GameOptions, LegalMove } from "./rules_pb.js";
import { file_mancala_v1_rules } from "./rules_pb.js";
import type { Message } from "@bufbuild/protobuf";

/**
 * Describes the file mancala/v1/matches.proto.
 */
export const file_mancala_v1_matches: GenFile = /*@__PURE__*/
  fileDesc("ChhtYW5jYWxhL3YxL21hdGNoZXMucHJvdG8SCm1hbmNhbGEudjEipgEKC1RpbWVDb250cm9sEioKB2Zpc2NoZXIYASABKAsyFy5tYW5jYWxhLnYxLkZpc2NoZXJUaW1lSAASJgoFZGVsYXkYAiABKAsyFS5tYW5jYWxhLnYxLkRlbGF5VGltZUgAEjgKDmNvcnJlc3BvbmRlbmNlGAMgASgLMh4ubWFuY2FsYS52MS5Db3JyZXNwb25kZW5jZVRpbWVIAEIJCgdjb250cm9sIjcKC0Zpc2NoZXJUaW1lEhIKCmluaXRpYWxfbXMYASABKAQSFAoMaW5jcmVtZW50X21zGAIgASgEIjEKCURlbGF5VGltZRISCgppbml0aWFsX21zGAEgASgEEhAKCGRlbGF5X21zGAIgASgEIisKEkNvcnJlc3BvbmRlbmNlVGltZRIVCg1kYXlzX3Blcl9tb3ZlGAEgASgNIo8BCgZDbG9ja3MSFAoMcmVtYWluaW5nX21zGAEgAygEEiMKB3J1bm5pbmcYAiABKA4yEi5tYW5jYWxhLnYxLlBsYXllchIQCghhc19vZl9tcxgDIAEoBBISCgpmbGFnX2F0X21zGAQgASgEEg8KB3N0YXJ0ZWQYBSABKAgSEwoLYWJvcnRfYXRfbXMYBiABKAQihwEKBFNlYXQSIgoGcGxheWVyGAEgASgOMhIubWFuY2FsYS52MS5QbGF5ZXISEQoJY29ubmVjdGVkGAIgASgIEhEKCXBsYXllcl9pZBgDIAEoCRIRCglib3RfbGV2ZWwYBCABKA0SFQoIYm90X3NlZWQYBSABKARIAIgBAUILCglfYm90X3NlZWQirAEKC01hdGNoUmVzdWx0EiIKBndpbm5lchgBIAEoDjISLm1hbmNhbGEudjEuUGxheWVyEioKBnJlYXNvbhgCIAEoDjIaLm1hbmNhbGEudjEuTWF0Y2hFbmRSZWFzb24SJAoIcmVzaWduZWQYAyABKA4yEi5tYW5jYWxhLnYxLlBsYXllchIWCg5maW5pc2hlZF9hdF9tcxgEIAEoBBIPCgdwbGFjaW5nGAUgAygNIo8ECgVNYXRjaBIQCghtYXRjaF9pZBgBIAEoCRIiCgRraW5kGAIgASgOMhQubWFuY2FsYS52MS5HYW1lS2luZBIoCgdvcHRpb25zGAMgASgLMhcubWFuY2FsYS52MS5HYW1lT3B0aW9ucxIkCgVzdGF0ZRgEIAEoCzIVLm1hbmNhbGEudjEuR2FtZVN0YXRlEg8KB3ZlcnNpb24YBSABKAQSJwoGc3RhdHVzGAYgASgOMhcubWFuY2FsYS52MS5NYXRjaFN0YXR1cxIfCgVzZWF0cxgHIAMoCzIQLm1hbmNhbGEudjEuU2VhdBIlCgtsZWdhbF9tb3ZlcxgIIAMoCzIQLm1hbmNhbGEudjEuTW92ZRInCgZyZXN1bHQYCSABKAsyFy5tYW5jYWxhLnYxLk1hdGNoUmVzdWx0EhUKDWNyZWF0ZWRfYXRfbXMYCiABKAQSJwoIcHJldmlld3MYCyADKAsyFS5tYW5jYWxhLnYxLkxlZ2FsTW92ZRItCgx0aW1lX2NvbnRyb2wYDCABKAsyFy5tYW5jYWxhLnYxLlRpbWVDb250cm9sEiIKBmNsb2NrcxgNIAEoCzISLm1hbmNhbGEudjEuQ2xvY2tzEiQKCGFncmVlaW5nGA4gAygOMhIubWFuY2FsYS52MS5QbGF5ZXISHAoUcG9zaXRpb25fb2NjdXJyZW5jZXMYDyABKA0ivgEKDE1hdGNoU3VtbWFyeRIQCghtYXRjaF9pZBgBIAEoCRIiCgRraW5kGAIgASgOMhQubWFuY2FsYS52MS5HYW1lS2luZBInCgZzdGF0dXMYAyABKA4yFy5tYW5jYWxhLnYxLk1hdGNoU3RhdHVzEg8KB3ZlcnNpb24YBCABKAQSFQoNY3JlYXRlZF9hdF9tcxgFIAEoBBInCgZyZXN1bHQYBiABKAsyFy5tYW5jYWxhLnYxLk1hdGNoUmVzdWx0IoMCChJDcmVhdGVNYXRjaFJlcXVlc3QSIgoEa2luZBgBIAEoDjIULm1hbmNhbGEudjEuR2FtZUtpbmQSKAoHb3B0aW9ucxgCIAEoCzIXLm1hbmNhbGEudjEuR2FtZU9wdGlvbnMSJwoHcGxheWVycxgDIAMoCzIWLm1hbmNhbGEudjEuU2VhdFBsYXllchIhCgRib3RzGAQgAygLMhMubWFuY2FsYS52MS5TZWF0Qm90Ei0KDHRpbWVfY29udHJvbBgFIAEoCzIXLm1hbmNhbGEudjEuVGltZUNvbnRyb2wSJAoFc3RhcnQYBiABKAsyFS5tYW5jYWxhLnYxLkdhbWVTdGF0ZSJYCgdTZWF0Qm90EiIKBnBsYXllchgBIAEoDjISLm1hbmNhbGEudjEuUGxheWVyEg0KBWxldmVsGAIgASgNEhEKBHNlZWQYAyABKARIAIgBAUIHCgVfc2VlZCJDCgpTZWF0UGxheWVyEiIKBnBsYXllchgBIAEoDjISLm1hbmNhbGEudjEuUGxheWVyEhEKCXBsYXllcl9pZBgCIAEoCSI+CglTZWF0VG9rZW4SIgoGcGxheWVyGAEgASgOMhIubWFuY2FsYS52MS5QbGF5ZXISDQoFdG9rZW4YAiABKAkiXgoTQ3JlYXRlTWF0Y2hSZXNwb25zZRIgCgVtYXRjaBgBIAEoCzIRLm1hbmNhbGEudjEuTWF0Y2gSJQoGdG9rZW5zGAIgAygLMhUubWFuY2FsYS52MS5TZWF0VG9rZW4iIwoPR2V0TWF0Y2hSZXF1ZXN0EhAKCG1hdGNoX2lkGAEgASgJIjQKEEdldE1hdGNoUmVzcG9uc2USIAoFbWF0Y2gYASABKAsyES5tYW5jYWxhLnYxLk1hdGNoIpsBChJMaXN0TWF0Y2hlc1JlcXVlc3QSIgoEa2luZBgBIAEoDjIULm1hbmNhbGEudjEuR2FtZUtpbmQSJwoGc3RhdHVzGAIgASgOMhcubWFuY2FsYS52MS5NYXRjaFN0YXR1cxIRCglwYWdlX3NpemUYAyABKA0SEgoKcGFnZV90b2tlbhgEIAEoCRIRCglwbGF5ZXJfaWQYBSABKAkiWQoTTGlzdE1hdGNoZXNSZXNwb25zZRIpCgdtYXRjaGVzGAEgAygLMhgubWFuY2FsYS52MS5NYXRjaFN1bW1hcnkSFwoPbmV4dF9wYWdlX3Rva2VuGAIgASgJIo0BChFTdWJtaXRNb3ZlUmVxdWVzdBIQCghtYXRjaF9pZBgBIAEoCRIeCgRtb3ZlGAIgASgLMhAubWFuY2FsYS52MS5Nb3ZlEh0KEGV4cGVjdGVkX3ZlcnNpb24YAyABKARIAIgBARISCgpyZXF1ZXN0X2lkGAQgASgJQhMKEV9leHBlY3RlZF92ZXJzaW9uIjsKElN1Ym1pdE1vdmVSZXNwb25zZRIlCgVldmVudBgBIAEoCzIWLm1hbmNhbGEudjEuTWF0Y2hFdmVudCJpCg1SZXNpZ25SZXF1ZXN0EhAKCG1hdGNoX2lkGAEgASgJEh0KEGV4cGVjdGVkX3ZlcnNpb24YAiABKARIAIgBARISCgpyZXF1ZXN0X2lkGAMgASgJQhMKEV9leHBlY3RlZF92ZXJzaW9uIjcKDlJlc2lnblJlc3BvbnNlEiUKBWV2ZW50GAEgASgLMhYubWFuY2FsYS52MS5NYXRjaEV2ZW50IlsKEVdhdGNoTWF0Y2hSZXF1ZXN0EhAKCG1hdGNoX2lkGAEgASgJEhUKCGZyb21fc2VxGAIgASgESACIAQESEAoIcHJldmlld3MYAyABKAhCCwoJX2Zyb21fc2VxIvUECgpNYXRjaEV2ZW50EgsKA3NlcRgBIAEoBBIiCgZwbGF5ZXIYAiABKA4yEi5tYW5jYWxhLnYxLlBsYXllchIgCgRtb3ZlGAMgASgLMhAubWFuY2FsYS52MS5Nb3ZlSAASLgoLcmVzaWduYXRpb24YBCABKAsyFy5tYW5jYWxhLnYxLlJlc2lnbmF0aW9uSAASJAoGZXhwaXJ5GAkgASgLMhIubWFuY2FsYS52MS5FeHBpcnlIABIgCgRmbGFnGAwgASgLMhAubWFuY2FsYS52MS5GbGFnSAASIgoFYWJvcnQYDSABKAsyES5tYW5jYWxhLnYxLkFib3J0SAASIgoFY2xhaW0YDiABKAsyES5tYW5jYWxhLnYxLkNsYWltSAASMQoNZW5kX2FncmVlbWVudBgQIAEoCzIYLm1hbmNhbGEudjEuRW5kQWdyZWVtZW50SAASIQoGZXZlbnRzGAUgAygLMhEubWFuY2FsYS52MS5FdmVudBIkCgVzdGF0ZRgGIAEoCzIVLm1hbmNhbGEudjEuR2FtZVN0YXRlEiUKC2xlZ2FsX21vdmVzGAcgAygLMhAubWFuY2FsYS52MS5Nb3ZlEhYKDmFjY2VwdGVkX2F0X21zGAggASgEEicKCHByZXZpZXdzGAogAygLMhUubWFuY2FsYS52MS5MZWdhbE1vdmUSIgoGY2xvY2tzGAsgASgLMhIubWFuY2FsYS52MS5DbG9ja3MSJAoIYWdyZWVpbmcYESADKA4yEi5tYW5jYWxhLnYxLlBsYXllchIcChRwb3NpdGlvbl9vY2N1cnJlbmNlcxgSIAEoDUIICgZhY3Rpb24iDQoLUmVzaWduYXRpb24iCAoGRXhwaXJ5IgYKBEZsYWciBwoFQWJvcnQiBwoFQ2xhaW0iOwoMRW5kQWdyZWVtZW50EisKBmFjdGlvbhgBIAEoDjIbLm1hbmNhbGEudjEuQWdyZWVtZW50QWN0aW9uIpoBChFBZ3JlZVRvRW5kUmVxdWVzdBIQCghtYXRjaF9pZBgBIAEoCRIrCgZhY3Rpb24YAiABKA4yGy5tYW5jYWxhLnYxLkFncmVlbWVudEFjdGlvbhIdChBleHBlY3RlZF92ZXJzaW9uGAMgASgESACIAQESEgoKcmVxdWVzdF9pZBgEIAEoCUITChFfZXhwZWN0ZWRfdmVyc2lvbiI7ChJBZ3JlZVRvRW5kUmVzcG9uc2USJQoFZXZlbnQYASABKAsyFi5tYW5jYWxhLnYxLk1hdGNoRXZlbnQiaAoMQWJvcnRSZXF1ZXN0EhAKCG1hdGNoX2lkGAEgASgJEh0KEGV4cGVjdGVkX3ZlcnNpb24YAiABKARIAIgBARISCgpyZXF1ZXN0X2lkGAMgASgJQhMKEV9leHBlY3RlZF92ZXJzaW9uIjYKDUFib3J0UmVzcG9uc2USJQoFZXZlbnQYASABKAsyFi5tYW5jYWxhLnYxLk1hdGNoRXZlbnQibwoTQ2xhaW1WaWN0b3J5UmVxdWVzdBIQCghtYXRjaF9pZBgBIAEoCRIdChBleHBlY3RlZF92ZXJzaW9uGAIgASgESACIAQESEgoKcmVxdWVzdF9pZBgDIAEoCUITChFfZXhwZWN0ZWRfdmVyc2lvbiI9ChRDbGFpbVZpY3RvcnlSZXNwb25zZRIlCgVldmVudBgBIAEoCzIWLm1hbmNhbGEudjEuTWF0Y2hFdmVudCJdCg1NYXRjaFNuYXBzaG90EiAKBW1hdGNoGAEgASgLMhEubWFuY2FsYS52MS5NYXRjaBIqCgZyZWFzb24YAiABKA4yGi5tYW5jYWxhLnYxLlNuYXBzaG90UmVhc29uIhwKCUhlYXJ0YmVhdBIPCgd2ZXJzaW9uGAEgASgEIkEKCFByZXNlbmNlEiIKBnBsYXllchgBIAEoDjISLm1hbmNhbGEudjEuUGxheWVyEhEKCWNvbm5lY3RlZBgCIAEoCCJJCg1NYXRjaEZpbmlzaGVkEg8KB3ZlcnNpb24YASABKAQSJwoGcmVzdWx0GAIgASgLMhcubWFuY2FsYS52MS5NYXRjaFJlc3VsdCL5AQoSV2F0Y2hNYXRjaFJlc3BvbnNlEi0KCHNuYXBzaG90GAEgASgLMhkubWFuY2FsYS52MS5NYXRjaFNuYXBzaG90SAASJwoFZXZlbnQYAiABKAsyFi5tYW5jYWxhLnYxLk1hdGNoRXZlbnRIABIqCgloZWFydGJlYXQYAyABKAsyFS5tYW5jYWxhLnYxLkhlYXJ0YmVhdEgAEigKCHByZXNlbmNlGAQgASgLMhQubWFuY2FsYS52MS5QcmVzZW5jZUgAEi0KCGZpbmlzaGVkGAUgASgLMhkubWFuY2FsYS52MS5NYXRjaEZpbmlzaGVkSABCBgoEa2luZCIlChFHZXRIaXN0b3J5UmVxdWVzdBIQCghtYXRjaF9pZBgBIAEoCSJwChJHZXRIaXN0b3J5UmVzcG9uc2USIAoFbWF0Y2gYASABKAsyES5tYW5jYWxhLnYxLk1hdGNoEiYKBmV2ZW50cxgCIAMoCzIWLm1hbmNhbGEudjEuTWF0Y2hFdmVudBIQCghub3RhdGlvbhgDIAEoCSpfCgtNYXRjaFN0YXR1cxIcChhNQVRDSF9TVEFUVVNfVU5TUEVDSUZJRUQQABIXChNNQVRDSF9TVEFUVVNfQUNUSVZFEAESGQoVTUFUQ0hfU1RBVFVTX0ZJTklTSEVEEAIq2AIKDk1hdGNoRW5kUmVhc29uEiAKHE1BVENIX0VORF9SRUFTT05fVU5TUEVDSUZJRUQQABIfChtNQVRDSF9FTkRfUkVBU09OX1BMQVlFRF9PVVQQARIgChxNQVRDSF9FTkRfUkVBU09OX1JFU0lHTkFUSU9OEAISHAoYTUFUQ0hfRU5EX1JFQVNPTl9FWFBJUkVEEAMSIQodTUFUQ0hfRU5EX1JFQVNPTl9USU1FX0ZPUkZFSVQQBBIcChhNQVRDSF9FTkRfUkVBU09OX0FCT1JURUQQBRIeChpNQVRDSF9FTkRfUkVBU09OX0FCQU5ET05FRBAGEh8KG01BVENIX0VORF9SRUFTT05fUkVQRVRJVElPThAHEh4KGk1BVENIX0VORF9SRUFTT05fQUdSRUVNRU5UEAgSIQodTUFUQ0hfRU5EX1JFQVNPTl9NQVRDSF9MRU5HVEgQCSqpAQoPQWdyZWVtZW50QWN0aW9uEiAKHEFHUkVFTUVOVF9BQ1RJT05fVU5TUEVDSUZJRUQQABIaChZBR1JFRU1FTlRfQUNUSU9OX09GRkVSEAESGwoXQUdSRUVNRU5UX0FDVElPTl9BQ0NFUFQQAhIcChhBR1JFRU1FTlRfQUNUSU9OX0RFQ0xJTkUQAxIdChlBR1JFRU1FTlRfQUNUSU9OX1dJVEhEUkFXEAQqagoOU25hcHNob3RSZWFzb24SHwobU05BUFNIT1RfUkVBU09OX1VOU1BFQ0lGSUVEEAASGwoXU05BUFNIT1RfUkVBU09OX0lOSVRJQUwQARIaChZTTkFQU0hPVF9SRUFTT05fUkVTWU5DEAIy+AUKB01hdGNoZXMSTgoLQ3JlYXRlTWF0Y2gSHi5tYW5jYWxhLnYxLkNyZWF0ZU1hdGNoUmVxdWVzdBofLm1hbmNhbGEudjEuQ3JlYXRlTWF0Y2hSZXNwb25zZRJFCghHZXRNYXRjaBIbLm1hbmNhbGEudjEuR2V0TWF0Y2hSZXF1ZXN0GhwubWFuY2FsYS52MS5HZXRNYXRjaFJlc3BvbnNlEk4KC0xpc3RNYXRjaGVzEh4ubWFuY2FsYS52MS5MaXN0TWF0Y2hlc1JlcXVlc3QaHy5tYW5jYWxhLnYxLkxpc3RNYXRjaGVzUmVzcG9uc2USSwoKU3VibWl0TW92ZRIdLm1hbmNhbGEudjEuU3VibWl0TW92ZVJlcXVlc3QaHi5tYW5jYWxhLnYxLlN1Ym1pdE1vdmVSZXNwb25zZRI/CgZSZXNpZ24SGS5tYW5jYWxhLnYxLlJlc2lnblJlcXVlc3QaGi5tYW5jYWxhLnYxLlJlc2lnblJlc3BvbnNlEk0KCldhdGNoTWF0Y2gSHS5tYW5jYWxhLnYxLldhdGNoTWF0Y2hSZXF1ZXN0Gh4ubWFuY2FsYS52MS5XYXRjaE1hdGNoUmVzcG9uc2UwARJLCgpHZXRIaXN0b3J5Eh0ubWFuY2FsYS52MS5HZXRIaXN0b3J5UmVxdWVzdBoeLm1hbmNhbGEudjEuR2V0SGlzdG9yeVJlc3BvbnNlEjwKBUFib3J0EhgubWFuY2FsYS52MS5BYm9ydFJlcXVlc3QaGS5tYW5jYWxhLnYxLkFib3J0UmVzcG9uc2USUQoMQ2xhaW1WaWN0b3J5Eh8ubWFuY2FsYS52MS5DbGFpbVZpY3RvcnlSZXF1ZXN0GiAubWFuY2FsYS52MS5DbGFpbVZpY3RvcnlSZXNwb25zZRJLCgpBZ3JlZVRvRW5kEh0ubWFuY2FsYS52MS5BZ3JlZVRvRW5kUmVxdWVzdBoeLm1hbmNhbGEudjEuQWdyZWVUb0VuZFJlc3BvbnNlQoEBCg5jb20ubWFuY2FsYS52MUIMTWF0Y2hlc1Byb3RvUAFaI21hbmNhbGEvZ2VuL2dvL21hbmNhbGEvdjE7bWFuY2FsYXYxogIDTVhYqgIKTWFuY2FsYS5WMboCC01hbmNhbGFfVjFfygIKTWFuY2FsYVxWMeoCC01hbmNhbGE6OlYxYgZwcm90bzM", [file_mancala_v1_game, file_mancala_v1_rules]);

/**
 * How a match is timed, chosen at creation. The server keeps the time; clients only show it (`Clocks`). None of
 * the three set: untimed.
 *
 * The clocks start once each seat has sown once; until then no time is spent, and a first sowing that does not
 * come within the abort time (`clock.abort_after_ms` for Fischer and delay, one whole turn in correspondence;
 * never for an untimed match) aborts the match. During a game the clock of the seat to sow runs. Between games
 * (the `NextGame` step) no clock runs and each seat keeps its time into the next game. When the running clock
 * reaches zero the seat loses on time (MATCH_END_REASON_TIME_FORFEIT), even if nobody calls.
 *
 * @generated from message mancala.v1.TimeControl
 */
export type TimeControl = Message<"mancala.v1.TimeControl"> & {
  /**
   * @generated from oneof mancala.v1.TimeControl.control
   */
  control: {
    /**
     * Initial time, and an increment added after each sowing.
     *
     * @generated from field: mancala.v1.FischerTime fischer = 1;
     */
    value: FischerTime;
    case: "fischer";
  } | {
    /**
     * Initial time, and a delay at the start of each turn that does not count (a simple delay; nothing is added).
     *
     * @generated from field: mancala.v1.DelayTime delay = 2;
     */
    value: DelayTime;
    case: "delay";
  } | {
    /**
     * A number of days for each sowing; the clock is set back to it after each.
     *
     * @generated from field: mancala.v1.CorrespondenceTime correspondence = 3;
     */
    value: CorrespondenceTime;
    case: "correspondence";
  } | { case: undefined; value?: undefined };
};

/**
 * Describes the message mancala.v1.TimeControl.
 * Use `create(TimeControlSchema)` to create a new message.
 */
export const TimeControlSchema: GenMessage<TimeControl> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 0);

/**
 * Fischer time: each seat starts with `initial_ms`; each sowing costs the time it took, then `increment_ms` is
 * added to the mover's clock.
 *
 * @generated from message mancala.v1.FischerTime
 */
export type FischerTime = Message<"mancala.v1.FischerTime"> & {
  /**
   * Each seat's time at the start (more than 0, at most `clock.max_initial_ms`).
   *
   * @generated from field: uint64 initial_ms = 1;
   */
  initialMs: bigint;

  /**
   * Added after each sowing (at most `clock.max_initial_ms`).
   *
   * @generated from field: uint64 increment_ms = 2;
   */
  incrementMs: bigint;
};

/**
 * Describes the message mancala.v1.FischerTime.
 * Use `create(FischerTimeSchema)` to create a new message.
 */
export const FischerTimeSchema: GenMessage<FischerTime> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 1);

/**
 * A simple delay: each seat starts with `initial_ms`; the first `delay_ms` of each turn are free.
 *
 * @generated from message mancala.v1.DelayTime
 */
export type DelayTime = Message<"mancala.v1.DelayTime"> & {
  /**
   * Each seat's time at the start (more than 0, at most `clock.max_initial_ms`).
   *
   * @generated from field: uint64 initial_ms = 1;
   */
  initialMs: bigint;

  /**
   * The free part of each turn (at most `clock.max_initial_ms`).
   *
   * @generated from field: uint64 delay_ms = 2;
   */
  delayMs: bigint;
};

/**
 * Describes the message mancala.v1.DelayTime.
 * Use `create(DelayTimeSchema)` to create a new message.
 */
export const DelayTimeSchema: GenMessage<DelayTime> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 2);

/**
 * Correspondence: each sowing must come within a number of days of the turn's start.
 *
 * @generated from message mancala.v1.CorrespondenceTime
 */
export type CorrespondenceTime = Message<"mancala.v1.CorrespondenceTime"> & {
  /**
   * Days per sowing, 1 to 30.
   *
   * @generated from field: uint32 days_per_move = 1;
   */
  daysPerMove: number;
};

/**
 * Describes the message mancala.v1.CorrespondenceTime.
 * Use `create(CorrespondenceTimeSchema)` to create a new message.
 */
export const CorrespondenceTimeSchema: GenMessage<CorrespondenceTime> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 3);

/**
 * The clocks of a timed match at a moment (`as_of_ms`). To show them: a seat whose clock does not run shows
 * `remaining_ms`; the running seat shows max(0, min(remaining_ms, flag_at_ms − now)), which counts down from
 * `as_of_ms` (after the delay, for a delay control).
 *
 * @generated from message mancala.v1.Clocks
 */
export type Clocks = Message<"mancala.v1.Clocks"> & {
  /**
   * Each seat's time left at `as_of_ms`, in milliseconds, South first.
   *
   * @generated from field: repeated uint64 remaining_ms = 1;
   */
  remainingMs: bigint[];

  /**
   * The seat whose clock runs; PLAYER_UNSPECIFIED before the clocks start, between games, and once the match is
   * over.
   *
   * @generated from field: mancala.v1.Player running = 2;
   */
  running: Player;

  /**
   * The moment `remaining_ms` was read, in milliseconds since the Unix epoch: the event's acceptance for an event,
   * the moment of the answer for a match.
   *
   * @generated from field: uint64 as_of_ms = 3;
   */
  asOfMs: bigint;

  /**
   * When the running seat's flag falls if it does not sow (0: no clock runs).
   *
   * @generated from field: uint64 flag_at_ms = 4;
   */
  flagAtMs: bigint;

  /**
   * Whether the clocks have started (each seat has sown once).
   *
   * @generated from field: bool started = 5;
   */
  started: boolean;

  /**
   * Before the clocks start: when the match is aborted if the awaited first sowing does not come (0: never).
   *
   * @generated from field: uint64 abort_at_ms = 6;
   */
  abortAtMs: bigint;
};

/**
 * Describes the message mancala.v1.Clocks.
 * Use `create(ClocksSchema)` to create a new message.
 */
export const ClocksSchema: GenMessage<Clocks> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 4);

/**
 * One seat of a match.
 *
 * @generated from message mancala.v1.Seat
 */
export type Seat = Message<"mancala.v1.Seat"> & {
  /**
   * South or North (or East, in three-player Ba-awa).
   *
   * @generated from field: mancala.v1.Player player = 1;
   */
  player: Player;

  /**
   * Whether at least one `WatchMatch` stream authenticated with this seat's token is open right now.
   *
   * @generated from field: bool connected = 2;
   */
  connected: boolean;

  /**
   * The player the seat is bound to (empty: the seat's token, or the server's bot, acts for it).
   *
   * @generated from field: string player_id = 3;
   */
  playerId: string;

  /**
   * The level of the server's bot playing this seat (1 to 6); 0: a person's seat.
   *
   * @generated from field: uint32 bot_level = 4;
   */
  botLevel: number;

  /**
   * The bot's seed, when one was given at creation (without one the bot's play still follows from the match).
   *
   * @generated from field: optional uint64 bot_seed = 5;
   */
  botSeed?: bigint | undefined;
};

/**
 * Describes the message mancala.v1.Seat.
 * Use `create(SeatSchema)` to create a new message.
 */
export const SeatSchema: GenMessage<Seat> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 5);

/**
 * The outcome of a finished match.
 *
 * @generated from message mancala.v1.MatchResult
 */
export type MatchResult = Message<"mancala.v1.MatchResult"> & {
  /**
   * The winner; PLAYER_UNSPECIFIED for a drawn match.
   *
   * @generated from field: mancala.v1.Player winner = 1;
   */
  winner: Player;

  /**
   * Why it ended.
   *
   * @generated from field: mancala.v1.MatchEndReason reason = 2;
   */
  reason: MatchEndReason;

  /**
   * The seat that resigned (RESIGNATION only).
   *
   * @generated from field: mancala.v1.Player resigned = 3;
   */
  resigned: Player;

  /**
   * When it ended, in milliseconds since the Unix epoch.
   *
   * @generated from field: uint64 finished_at_ms = 4;
   */
  finishedAtMs: bigint;

  /**
   * Three-player Ba-awa: each seat's place, [South, North, East], 1 for the winner. Played out, as the rules
   * place them (docs/ba-awa.md §4.7); when a seat resigned, lost on time or was claimed against, that seat is
   * third and the other two are placed by the pits they hold (level: both first, and no winner). Empty for
   * two-player matches and for matches with no result.
   *
   * @generated from field: repeated uint32 placing = 5;
   */
  placing: number[];
};

/**
 * Describes the message mancala.v1.MatchResult.
 * Use `create(MatchResultSchema)` to create a new message.
 */
export const MatchResultSchema: GenMessage<MatchResult> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 6);

/**
 * A match as it stands.
 *
 * @generated from message mancala.v1.Match
 */
export type Match = Message<"mancala.v1.Match"> & {
  /**
   * The match id: 32 lowercase hex digits (128 random bits).
   *
   * @generated from field: string match_id = 1;
   */
  matchId: string;

  /**
   * The game played.
   *
   * @generated from field: mancala.v1.GameKind kind = 2;
   */
  kind: GameKind;

  /**
   * The options it was created with.
   *
   * @generated from field: mancala.v1.GameOptions options = 3;
   */
  options?: GameOptions | undefined;

  /**
   * The board after the last accepted event (a resignation leaves it as it was).
   *
   * @generated from field: mancala.v1.GameState state = 4;
   */
  state?: GameState | undefined;

  /**
   * The number of accepted events (the `seq` of the last one; 0 for a new match).
   *
   * @generated from field: uint64 version = 5;
   */
  version: bigint;

  /**
   * Active or finished.
   *
   * @generated from field: mancala.v1.MatchStatus status = 6;
   */
  status: MatchStatus;

  /**
   * Every seat, in the order of the `Player` enum: South, North, then East in three-player Ba-awa.
   *
   * @generated from field: repeated mancala.v1.Seat seats = 7;
   */
  seats: Seat[];

  /**
   * The moves the rules allow now, in the Rules service's order (a single `NextGame` between games or rounds;
   * empty once the match is finished). Who may submit them: see the file comment.
   *
   * @generated from field: repeated mancala.v1.Move legal_moves = 8;
   */
  legalMoves: Move[];

  /**
   * Set once the match is finished.
   *
   * @generated from field: mancala.v1.MatchResult result = 9;
   */
  result?: MatchResult | undefined;

  /**
   * When it was created, in milliseconds since the Unix epoch.
   *
   * @generated from field: uint64 created_at_ms = 10;
   */
  createdAtMs: bigint;

  /**
   * `WatchMatch` with `previews` only: every legal move with the state after it and its events, as
   * `Rules/ListLegalMoves` answers them (empty once the match is finished).
   *
   * @generated from field: repeated mancala.v1.LegalMove previews = 11;
   */
  previews: LegalMove[];

  /**
   * How the match is timed (absent: untimed).
   *
   * @generated from field: mancala.v1.TimeControl time_control = 12;
   */
  timeControl?: TimeControl | undefined;

  /**
   * The clocks now, for a timed match (absent for an untimed one).
   *
   * @generated from field: mancala.v1.Clocks clocks = 13;
   */
  clocks?: Clocks | undefined;

  /**
   * The seats that have offered or accepted to end the game being played by agreement (`AgreeToEnd`).
   *
   * @generated from field: repeated mancala.v1.Player agreeing = 14;
   */
  agreeing: Player[];

  /**
   * How many times the current position has occurred in this game (0 between games); its third occurrence ends
   * the game when `options.repetition` is on (§1 "Repetition").
   *
   * @generated from field: uint32 position_occurrences = 15;
   */
  positionOccurrences: number;
};

/**
 * Describes the message mancala.v1.Match.
 * Use `create(MatchSchema)` to create a new message.
 */
export const MatchSchema: GenMessage<Match> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 7);

/**
 * A match in a list: what can be shown without its board.
 *
 * @generated from message mancala.v1.MatchSummary
 */
export type MatchSummary = Message<"mancala.v1.MatchSummary"> & {
  /**
   * The match id.
   *
   * @generated from field: string match_id = 1;
   */
  matchId: string;

  /**
   * The game played.
   *
   * @generated from field: mancala.v1.GameKind kind = 2;
   */
  kind: GameKind;

  /**
   * Active or finished.
   *
   * @generated from field: mancala.v1.MatchStatus status = 3;
   */
  status: MatchStatus;

  /**
   * The number of accepted events.
   *
   * @generated from field: uint64 version = 4;
   */
  version: bigint;

  /**
   * When it was created, in milliseconds since the Unix epoch.
   *
   * @generated from field: uint64 created_at_ms = 5;
   */
  createdAtMs: bigint;

  /**
   * Set once the match is finished.
   *
   * @generated from field: mancala.v1.MatchResult result = 6;
   */
  result?: MatchResult | undefined;
};

/**
 * Describes the message mancala.v1.MatchSummary.
 * Use `create(MatchSummarySchema)` to create a new message.
 */
export const MatchSummarySchema: GenMessage<MatchSummary> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 8);

/**
 * @generated from message mancala.v1.CreateMatchRequest
 */
export type CreateMatchRequest = Message<"mancala.v1.CreateMatchRequest"> & {
  /**
   * The game to play (required, and implemented by this server).
   *
   * @generated from field: mancala.v1.GameKind kind = 1;
   */
  kind: GameKind;

  /**
   * Who starts, Ba-awa's target; absent for the defaults.
   *
   * @generated from field: mancala.v1.GameOptions options = 2;
   */
  options?: GameOptions | undefined;

  /**
   * Seats to bind to players of the calling tenant (at most one entry per seat; the two seats' players must
   * differ). A bound seat gets no token: its player's tokens act for it.
   *
   * @generated from field: repeated mancala.v1.SeatPlayer players = 3;
   */
  players: SeatPlayer[];

  /**
   * Seats the server plays itself (at most one entry per seat, and not a seat of `players`; both seats: a bot
   * against a bot, for spectators). A bot seat gets no token.
   *
   * @generated from field: repeated mancala.v1.SeatBot bots = 4;
   */
  bots: SeatBot[];

  /**
   * How the match is timed; absent: untimed.
   *
   * @generated from field: mancala.v1.TimeControl time_control = 5;
   */
  timeControl?: TimeControl | undefined;

  /**
   * A position to begin from instead of the game's opening (a puzzle, an adjourned game, an ending to practise):
   * a state as the Rules API returns it, of `kind` and in progress. Validated as `ValidateMove` validates a state
   * (errors name `start.<field>`). What the position itself says (Ba-awa's target and players, Bao la Kete's
   * starter rule, the game number and match score) rules the match; `options` may leave those unset, and is
   * refused where it says otherwise. Repetition counts from this position; the match's notation writes it on a
   * `start` line. Absent: the opening.
   *
   * @generated from field: mancala.v1.GameState start = 6;
   */
  start?: GameState | undefined;
};

/**
 * Describes the message mancala.v1.CreateMatchRequest.
 * Use `create(CreateMatchRequestSchema)` to create a new message.
 */
export const CreateMatchRequestSchema: GenMessage<CreateMatchRequest> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 9);

/**
 * A seat played by the server's own opponent.
 *
 * @generated from message mancala.v1.SeatBot
 */
export type SeatBot = Message<"mancala.v1.SeatBot"> & {
  /**
   * South or North.
   *
   * @generated from field: mancala.v1.Player player = 1;
   */
  player: Player;

  /**
   * How strong: 1 (uniformly random legal moves), 2 (greedy, one move deep), 3 to 6 (longer and longer searches,
   * each level beating the one below; BENCHMARKS.md "Built-in opponents"). A server may accept fewer
   * (`bots.max_level`).
   *
   * @generated from field: uint32 level = 2;
   */
  level: number;

  /**
   * The seed of the bot's random choices: with one, the same history always gives the same moves. Absent: one
   * derived from the match id.
   *
   * @generated from field: optional uint64 seed = 3;
   */
  seed?: bigint | undefined;
};

/**
 * Describes the message mancala.v1.SeatBot.
 * Use `create(SeatBotSchema)` to create a new message.
 */
export const SeatBotSchema: GenMessage<SeatBot> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 10);

/**
 * A seat bound to a player.
 *
 * @generated from message mancala.v1.SeatPlayer
 */
export type SeatPlayer = Message<"mancala.v1.SeatPlayer"> & {
  /**
   * South or North.
   *
   * @generated from field: mancala.v1.Player player = 1;
   */
  player: Player;

  /**
   * The tenant's id for its user, as in `IssuePlayerTokenRequest.player_id`.
   *
   * @generated from field: string player_id = 2;
   */
  playerId: string;
};

/**
 * Describes the message mancala.v1.SeatPlayer.
 * Use `create(SeatPlayerSchema)` to create a new message.
 */
export const SeatPlayerSchema: GenMessage<SeatPlayer> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 11);

/**
 * A seat's secret. Send it as `authorization: Bearer <token>` to act for that seat.
 *
 * @generated from message mancala.v1.SeatToken
 */
export type SeatToken = Message<"mancala.v1.SeatToken"> & {
  /**
   * The seat.
   *
   * @generated from field: mancala.v1.Player player = 1;
   */
  player: Player;

  /**
   * The token: 64 lowercase hex digits. Shown only here, once.
   *
   * @generated from field: string token = 2;
   */
  token: string;
};

/**
 * Describes the message mancala.v1.SeatToken.
 * Use `create(SeatTokenSchema)` to create a new message.
 */
export const SeatTokenSchema: GenMessage<SeatToken> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 12);

/**
 * @generated from message mancala.v1.CreateMatchResponse
 */
export type CreateMatchResponse = Message<"mancala.v1.CreateMatchResponse"> & {
  /**
   * The new match (version 0).
   *
   * @generated from field: mancala.v1.Match match = 1;
   */
  match?: Match | undefined;

  /**
   * One token per seat not bound to a player nor played by a bot, South first. Hand each to its player; anyone holding one can play
   * that seat.
   *
   * @generated from field: repeated mancala.v1.SeatToken tokens = 2;
   */
  tokens: SeatToken[];
};

/**
 * Describes the message mancala.v1.CreateMatchResponse.
 * Use `create(CreateMatchResponseSchema)` to create a new message.
 */
export const CreateMatchResponseSchema: GenMessage<CreateMatchResponse> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 13);

/**
 * @generated from message mancala.v1.GetMatchRequest
 */
export type GetMatchRequest = Message<"mancala.v1.GetMatchRequest"> & {
  /**
   * The match id.
   *
   * @generated from field: string match_id = 1;
   */
  matchId: string;
};

/**
 * Describes the message mancala.v1.GetMatchRequest.
 * Use `create(GetMatchRequestSchema)` to create a new message.
 */
export const GetMatchRequestSchema: GenMessage<GetMatchRequest> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 14);

/**
 * @generated from message mancala.v1.GetMatchResponse
 */
export type GetMatchResponse = Message<"mancala.v1.GetMatchResponse"> & {
  /**
   * The match as it stands.
   *
   * @generated from field: mancala.v1.Match match = 1;
   */
  match?: Match | undefined;
};

/**
 * Describes the message mancala.v1.GetMatchResponse.
 * Use `create(GetMatchResponseSchema)` to create a new message.
 */
export const GetMatchResponseSchema: GenMessage<GetMatchResponse> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 15);

/**
 * @generated from message mancala.v1.ListMatchesRequest
 */
export type ListMatchesRequest = Message<"mancala.v1.ListMatchesRequest"> & {
  /**
   * Only matches of this game (UNSPECIFIED: every game).
   *
   * @generated from field: mancala.v1.GameKind kind = 1;
   */
  kind: GameKind;

  /**
   * Only matches in this status (UNSPECIFIED: any).
   *
   * @generated from field: mancala.v1.MatchStatus status = 2;
   */
  status: MatchStatus;

  /**
   * At most this many matches (0: 50; more than 500 is treated as 500).
   *
   * @generated from field: uint32 page_size = 3;
   */
  pageSize: number;

  /**
   * `next_page_token` of the previous page; empty for the first page.
   *
   * @generated from field: string page_token = 4;
   */
  pageToken: string;

  /**
   * Only the matches with a seat bound to this player of the tenant, newest first (a "my games" screen; the page
   * token continues that order). Served from the lobby's record of the tenant's matches (lobby.proto), which holds
   * every match created since this version and the unfinished ones from before; the status is as the lobby last
   * heard it (an end is recorded within milliseconds).
   *
   * @generated from field: string player_id = 5;
   */
  playerId: string;
};

/**
 * Describes the message mancala.v1.ListMatchesRequest.
 * Use `create(ListMatchesRequestSchema)` to create a new message.
 */
export const ListMatchesRequestSchema: GenMessage<ListMatchesRequest> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 16);

/**
 * @generated from message mancala.v1.ListMatchesResponse
 */
export type ListMatchesResponse = Message<"mancala.v1.ListMatchesResponse"> & {
  /**
   * The matches of this page: in match-id order (stable across pages, not chronological), or newest first with
   * `player_id`.
   *
   * @generated from field: repeated mancala.v1.MatchSummary matches = 1;
   */
  matches: MatchSummary[];

  /**
   * Pass as `page_token` for the next page; empty on the last page.
   *
   * @generated from field: string next_page_token = 2;
   */
  nextPageToken: string;
};

/**
 * Describes the message mancala.v1.ListMatchesResponse.
 * Use `create(ListMatchesResponseSchema)` to create a new message.
 */
export const ListMatchesResponseSchema: GenMessage<ListMatchesResponse> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 17);

/**
 * @generated from message mancala.v1.SubmitMoveRequest
 */
export type SubmitMoveRequest = Message<"mancala.v1.SubmitMoveRequest"> & {
  /**
   * The match id.
   *
   * @generated from field: string match_id = 1;
   */
  matchId: string;

  /**
   * The move, as in the Rules service.
   *
   * @generated from field: mancala.v1.Move move = 2;
   */
  move?: Move | undefined;

  /**
   * When set, the move applies only if the match's version is still this; otherwise ABORTED with the current
   * version. When absent, the move applies to whatever the state is (the seat and legality checks still hold).
   *
   * @generated from field: optional uint64 expected_version = 3;
   */
  expectedVersion?: bigint | undefined;

  /**
   * An idempotency key chosen by the client (at most 128 bytes; empty: none). A request retried with the same
   * key returns the original answer and applies the move only once; the same key with a different move or seat
   * is INVALID_ARGUMENT. Keys are remembered for the life of the match.
   *
   * @generated from field: string request_id = 4;
   */
  requestId: string;
};

/**
 * Describes the message mancala.v1.SubmitMoveRequest.
 * Use `create(SubmitMoveRequestSchema)` to create a new message.
 */
export const SubmitMoveRequestSchema: GenMessage<SubmitMoveRequest> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 18);

/**
 * @generated from message mancala.v1.SubmitMoveResponse
 */
export type SubmitMoveResponse = Message<"mancala.v1.SubmitMoveResponse"> & {
  /**
   * The accepted event (its `seq` is the match's new version), with the trace, the new state and the next moves.
   *
   * @generated from field: mancala.v1.MatchEvent event = 1;
   */
  event?: MatchEvent | undefined;
};

/**
 * Describes the message mancala.v1.SubmitMoveResponse.
 * Use `create(SubmitMoveResponseSchema)` to create a new message.
 */
export const SubmitMoveResponseSchema: GenMessage<SubmitMoveResponse> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 19);

/**
 * @generated from message mancala.v1.ResignRequest
 */
export type ResignRequest = Message<"mancala.v1.ResignRequest"> & {
  /**
   * The match id.
   *
   * @generated from field: string match_id = 1;
   */
  matchId: string;

  /**
   * As in `SubmitMoveRequest`.
   *
   * @generated from field: optional uint64 expected_version = 2;
   */
  expectedVersion?: bigint | undefined;

  /**
   * As in `SubmitMoveRequest`.
   *
   * @generated from field: string request_id = 3;
   */
  requestId: string;
};

/**
 * Describes the message mancala.v1.ResignRequest.
 * Use `create(ResignRequestSchema)` to create a new message.
 */
export const ResignRequestSchema: GenMessage<ResignRequest> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 20);

/**
 * @generated from message mancala.v1.ResignResponse
 */
export type ResignResponse = Message<"mancala.v1.ResignResponse"> & {
  /**
   * The resignation event; the match is finished.
   *
   * @generated from field: mancala.v1.MatchEvent event = 1;
   */
  event?: MatchEvent | undefined;
};

/**
 * Describes the message mancala.v1.ResignResponse.
 * Use `create(ResignResponseSchema)` to create a new message.
 */
export const ResignResponseSchema: GenMessage<ResignResponse> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 21);

/**
 * @generated from message mancala.v1.WatchMatchRequest
 */
export type WatchMatchRequest = Message<"mancala.v1.WatchMatchRequest"> & {
  /**
   * The match id.
   *
   * @generated from field: string match_id = 1;
   */
  matchId: string;

  /**
   * Resume after a disconnect: the `seq` of the last event the client already has (0: none). The stream sends
   * exactly the events after it, then the live ones, with no snapshot first. Absent: the stream starts with a
   * snapshot. A value beyond the match's version is OUT_OF_RANGE.
   *
   * @generated from field: optional uint64 from_seq = 2;
   */
  fromSeq?: bigint | undefined;

  /**
   * Every snapshot and event also carries the preview of each legal move (`Match.previews`,
   * `MatchEvent.previews`): what a bot or a board that shows "what happens if" needs at every turn, without a
   * `Rules/ListLegalMoves` call of its own. The previews are worked out for this stream, under the Rules service's
   * budget; they make each message several times larger.
   *
   * @generated from field: bool previews = 3;
   */
  previews: boolean;
};

/**
 * Describes the message mancala.v1.WatchMatchRequest.
 * Use `create(WatchMatchRequestSchema)` to create a new message.
 */
export const WatchMatchRequestSchema: GenMessage<WatchMatchRequest> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 22);

/**
 * One accepted event of the match's log.
 *
 * @generated from message mancala.v1.MatchEvent
 */
export type MatchEvent = Message<"mancala.v1.MatchEvent"> & {
  /**
   * 1-based position in the log; the match's version once this event is accepted.
   *
   * @generated from field: uint64 seq = 1;
   */
  seq: bigint;

  /**
   * The seat that made it.
   *
   * @generated from field: mancala.v1.Player player = 2;
   */
  player: Player;

  /**
   * What was done.
   *
   * @generated from oneof mancala.v1.MatchEvent.action
   */
  action: {
    /**
     * A move (a sowing or `NextGame`).
     *
     * @generated from field: mancala.v1.Move move = 3;
     */
    value: Move;
    case: "move";
  } | {
    /**
     * The seat resigned.
     *
     * @generated from field: mancala.v1.Resignation resignation = 4;
     */
    value: Resignation;
    case: "resignation";
  } | {
    /**
     * The server ended the match for want of play (`player` is the seat whose turn it was, South between games).
     *
     * @generated from field: mancala.v1.Expiry expiry = 9;
     */
    value: Expiry;
    case: "expiry";
  } | {
    /**
     * `player`'s time ran out: the other seat wins (written by the server).
     *
     * @generated from field: mancala.v1.Flag flag = 12;
     */
    value: Flag;
    case: "flag";
  } | {
    /**
     * The match was called off before each seat had sown once: by `player` (`Abort`), or by the server when
     * `player`'s first sowing did not come in time.
     *
     * @generated from field: mancala.v1.Abort abort = 13;
     */
    value: Abort;
    case: "abort";
  } | {
    /**
     * `player` claimed the win: the seat to move had left (`ClaimVictory`).
     *
     * @generated from field: mancala.v1.Claim claim = 14;
     */
    value: Claim;
    case: "claim";
  } | {
    /**
     * A seat's part in ending the game by agreement (`AgreeToEnd`); when it completes the agreement, `events`
     * holds the game's end.
     *
     * @generated from field: mancala.v1.EndAgreement end_agreement = 16;
     */
    value: EndAgreement;
    case: "endAgreement";
  } | { case: undefined; value?: undefined };

  /**
   * The sowing trace of the move, as the Rules service's `ApplyMove` gives it (empty for a resignation).
   *
   * @generated from field: repeated mancala.v1.Event events = 5;
   */
  events: Event[];

  /**
   * The state after the event.
   *
   * @generated from field: mancala.v1.GameState state = 6;
   */
  state?: GameState | undefined;

  /**
   * The moves the rules allow after the event (empty once the match is finished).
   *
   * @generated from field: repeated mancala.v1.Move legal_moves = 7;
   */
  legalMoves: Move[];

  /**
   * When the server accepted it, in milliseconds since the Unix epoch.
   *
   * @generated from field: uint64 accepted_at_ms = 8;
   */
  acceptedAtMs: bigint;

  /**
   * `WatchMatch` with `previews` only: every legal move after the event with its preview, as in `Match.previews`.
   *
   * @generated from field: repeated mancala.v1.LegalMove previews = 10;
   */
  previews: LegalMove[];

  /**
   * A timed match's clocks just after the event (`as_of_ms` = `accepted_at_ms`); absent for an untimed match.
   *
   * @generated from field: mancala.v1.Clocks clocks = 11;
   */
  clocks?: Clocks | undefined;

  /**
   * The seats agreeing to end the game after the event (`AgreeToEnd`; a seat's agreement lapses when it sows).
   *
   * @generated from field: repeated mancala.v1.Player agreeing = 17;
   */
  agreeing: Player[];

  /**
   * How many times the position after the event has occurred in its game (0 between games): a third occurrence
   * ended it when the match's repetition rule is on.
   *
   * @generated from field: uint32 position_occurrences = 18;
   */
  positionOccurrences: number;
};

/**
 * Describes the message mancala.v1.MatchEvent.
 * Use `create(MatchEventSchema)` to create a new message.
 */
export const MatchEventSchema: GenMessage<MatchEvent> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 23);

/**
 * A resignation.
 *
 * @generated from message mancala.v1.Resignation
 */
export type Resignation = Message<"mancala.v1.Resignation"> & {
};

/**
 * Describes the message mancala.v1.Resignation.
 * Use `create(ResignationSchema)` to create a new message.
 */
export const ResignationSchema: GenMessage<Resignation> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 24);

/**
 * The idle expiry of a match: nobody played for `matches.idle_expiry_ms`.
 *
 * @generated from message mancala.v1.Expiry
 */
export type Expiry = Message<"mancala.v1.Expiry"> & {
};

/**
 * Describes the message mancala.v1.Expiry.
 * Use `create(ExpirySchema)` to create a new message.
 */
export const ExpirySchema: GenMessage<Expiry> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 25);

/**
 * A seat's time ran out.
 *
 * @generated from message mancala.v1.Flag
 */
export type Flag = Message<"mancala.v1.Flag"> & {
};

/**
 * Describes the message mancala.v1.Flag.
 * Use `create(FlagSchema)` to create a new message.
 */
export const FlagSchema: GenMessage<Flag> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 26);

/**
 * The match was aborted.
 *
 * @generated from message mancala.v1.Abort
 */
export type Abort = Message<"mancala.v1.Abort"> & {
};

/**
 * Describes the message mancala.v1.Abort.
 * Use `create(AbortSchema)` to create a new message.
 */
export const AbortSchema: GenMessage<Abort> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 27);

/**
 * The match was claimed, the opponent having left.
 *
 * @generated from message mancala.v1.Claim
 */
export type Claim = Message<"mancala.v1.Claim"> & {
};

/**
 * Describes the message mancala.v1.Claim.
 * Use `create(ClaimSchema)` to create a new message.
 */
export const ClaimSchema: GenMessage<Claim> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 28);

/**
 * A seat's part in ending the game by agreement.
 *
 * @generated from message mancala.v1.EndAgreement
 */
export type EndAgreement = Message<"mancala.v1.EndAgreement"> & {
  /**
   * @generated from field: mancala.v1.AgreementAction action = 1;
   */
  action: AgreementAction;
};

/**
 * Describes the message mancala.v1.EndAgreement.
 * Use `create(EndAgreementSchema)` to create a new message.
 */
export const EndAgreementSchema: GenMessage<EndAgreement> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 29);

/**
 * @generated from message mancala.v1.AgreeToEndRequest
 */
export type AgreeToEndRequest = Message<"mancala.v1.AgreeToEndRequest"> & {
  /**
   * The match (required).
   *
   * @generated from field: string match_id = 1;
   */
  matchId: string;

  /**
   * What the caller's seat does (required).
   *
   * @generated from field: mancala.v1.AgreementAction action = 2;
   */
  action: AgreementAction;

  /**
   * If set, refused unless the match is at this version (ABORTED, "VERSION_MISMATCH").
   *
   * @generated from field: optional uint64 expected_version = 3;
   */
  expectedVersion?: bigint | undefined;

  /**
   * A retry of the same request with the same id is answered with the same event instead of being applied twice.
   *
   * @generated from field: string request_id = 4;
   */
  requestId: string;
};

/**
 * Describes the message mancala.v1.AgreeToEndRequest.
 * Use `create(AgreeToEndRequestSchema)` to create a new message.
 */
export const AgreeToEndRequestSchema: GenMessage<AgreeToEndRequest> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 30);

/**
 * @generated from message mancala.v1.AgreeToEndResponse
 */
export type AgreeToEndResponse = Message<"mancala.v1.AgreeToEndResponse"> & {
  /**
   * @generated from field: mancala.v1.MatchEvent event = 1;
   */
  event?: MatchEvent | undefined;
};

/**
 * Describes the message mancala.v1.AgreeToEndResponse.
 * Use `create(AgreeToEndResponseSchema)` to create a new message.
 */
export const AgreeToEndResponseSchema: GenMessage<AgreeToEndResponse> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 31);

/**
 * @generated from message mancala.v1.AbortRequest
 */
export type AbortRequest = Message<"mancala.v1.AbortRequest"> & {
  /**
   * The match id.
   *
   * @generated from field: string match_id = 1;
   */
  matchId: string;

  /**
   * As in `SubmitMoveRequest`.
   *
   * @generated from field: optional uint64 expected_version = 2;
   */
  expectedVersion?: bigint | undefined;

  /**
   * As in `SubmitMoveRequest`.
   *
   * @generated from field: string request_id = 3;
   */
  requestId: string;
};

/**
 * Describes the message mancala.v1.AbortRequest.
 * Use `create(AbortRequestSchema)` to create a new message.
 */
export const AbortRequestSchema: GenMessage<AbortRequest> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 32);

/**
 * @generated from message mancala.v1.AbortResponse
 */
export type AbortResponse = Message<"mancala.v1.AbortResponse"> & {
  /**
   * The abort event; the match is finished with no result.
   *
   * @generated from field: mancala.v1.MatchEvent event = 1;
   */
  event?: MatchEvent | undefined;
};

/**
 * Describes the message mancala.v1.AbortResponse.
 * Use `create(AbortResponseSchema)` to create a new message.
 */
export const AbortResponseSchema: GenMessage<AbortResponse> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 33);

/**
 * @generated from message mancala.v1.ClaimVictoryRequest
 */
export type ClaimVictoryRequest = Message<"mancala.v1.ClaimVictoryRequest"> & {
  /**
   * The match id.
   *
   * @generated from field: string match_id = 1;
   */
  matchId: string;

  /**
   * As in `SubmitMoveRequest`.
   *
   * @generated from field: optional uint64 expected_version = 2;
   */
  expectedVersion?: bigint | undefined;

  /**
   * As in `SubmitMoveRequest`.
   *
   * @generated from field: string request_id = 3;
   */
  requestId: string;
};

/**
 * Describes the message mancala.v1.ClaimVictoryRequest.
 * Use `create(ClaimVictoryRequestSchema)` to create a new message.
 */
export const ClaimVictoryRequestSchema: GenMessage<ClaimVictoryRequest> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 34);

/**
 * @generated from message mancala.v1.ClaimVictoryResponse
 */
export type ClaimVictoryResponse = Message<"mancala.v1.ClaimVictoryResponse"> & {
  /**
   * The claim event; the caller's seat has won.
   *
   * @generated from field: mancala.v1.MatchEvent event = 1;
   */
  event?: MatchEvent | undefined;
};

/**
 * Describes the message mancala.v1.ClaimVictoryResponse.
 * Use `create(ClaimVictoryResponseSchema)` to create a new message.
 */
export const ClaimVictoryResponseSchema: GenMessage<ClaimVictoryResponse> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 35);

/**
 * The whole match at one version; the events that follow have `seq` greater than `match.version`.
 *
 * @generated from message mancala.v1.MatchSnapshot
 */
export type MatchSnapshot = Message<"mancala.v1.MatchSnapshot"> & {
  /**
   * The match as it stands.
   *
   * @generated from field: mancala.v1.Match match = 1;
   */
  match?: Match | undefined;

  /**
   * Why it was sent.
   *
   * @generated from field: mancala.v1.SnapshotReason reason = 2;
   */
  reason: SnapshotReason;
};

/**
 * Describes the message mancala.v1.MatchSnapshot.
 * Use `create(MatchSnapshotSchema)` to create a new message.
 */
export const MatchSnapshotSchema: GenMessage<MatchSnapshot> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 36);

/**
 * Sent on an idle stream every heartbeat interval, so that proxies keep it open and the client can tell the
 * server is alive.
 *
 * @generated from message mancala.v1.Heartbeat
 */
export type Heartbeat = Message<"mancala.v1.Heartbeat"> & {
  /**
   * The match's version now.
   *
   * @generated from field: uint64 version = 1;
   */
  version: bigint;
};

/**
 * Describes the message mancala.v1.Heartbeat.
 * Use `create(HeartbeatSchema)` to create a new message.
 */
export const HeartbeatSchema: GenMessage<Heartbeat> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 37);

/**
 * A seated player's first stream opened, or his last one closed. Not part of the log (no `seq`).
 *
 * @generated from message mancala.v1.Presence
 */
export type Presence = Message<"mancala.v1.Presence"> & {
  /**
   * The seat.
   *
   * @generated from field: mancala.v1.Player player = 1;
   */
  player: Player;

  /**
   * Whether the seat now has an open stream.
   *
   * @generated from field: bool connected = 2;
   */
  connected: boolean;
};

/**
 * Describes the message mancala.v1.Presence.
 * Use `create(PresenceSchema)` to create a new message.
 */
export const PresenceSchema: GenMessage<Presence> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 38);

/**
 * The last message of a stream: the match is over. The stream then ends with OK.
 *
 * @generated from message mancala.v1.MatchFinished
 */
export type MatchFinished = Message<"mancala.v1.MatchFinished"> & {
  /**
   * The final version.
   *
   * @generated from field: uint64 version = 1;
   */
  version: bigint;

  /**
   * The outcome.
   *
   * @generated from field: mancala.v1.MatchResult result = 2;
   */
  result?: MatchResult | undefined;
};

/**
 * Describes the message mancala.v1.MatchFinished.
 * Use `create(MatchFinishedSchema)` to create a new message.
 */
export const MatchFinishedSchema: GenMessage<MatchFinished> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 39);

/**
 * One message of a `WatchMatch` stream.
 *
 * @generated from message mancala.v1.WatchMatchResponse
 */
export type WatchMatchResponse = Message<"mancala.v1.WatchMatchResponse"> & {
  /**
   * @generated from oneof mancala.v1.WatchMatchResponse.kind
   */
  kind: {
    /**
     * The match at a version (first message, or after falling behind).
     *
     * @generated from field: mancala.v1.MatchSnapshot snapshot = 1;
     */
    value: MatchSnapshot;
    case: "snapshot";
  } | {
    /**
     * An accepted event, in `seq` order with neither gap nor duplicate.
     *
     * @generated from field: mancala.v1.MatchEvent event = 2;
     */
    value: MatchEvent;
    case: "event";
  } | {
    /**
     * Nothing happened for a while.
     *
     * @generated from field: mancala.v1.Heartbeat heartbeat = 3;
     */
    value: Heartbeat;
    case: "heartbeat";
  } | {
    /**
     * A seat connected or disconnected.
     *
     * @generated from field: mancala.v1.Presence presence = 4;
     */
    value: Presence;
    case: "presence";
  } | {
    /**
     * The match ended; the stream ends after this.
     *
     * @generated from field: mancala.v1.MatchFinished finished = 5;
     */
    value: MatchFinished;
    case: "finished";
  } | { case: undefined; value?: undefined };
};

/**
 * Describes the message mancala.v1.WatchMatchResponse.
 * Use `create(WatchMatchResponseSchema)` to create a new message.
 */
export const WatchMatchResponseSchema: GenMessage<WatchMatchResponse> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 40);

/**
 * @generated from message mancala.v1.GetHistoryRequest
 */
export type GetHistoryRequest = Message<"mancala.v1.GetHistoryRequest"> & {
  /**
   * The match id.
   *
   * @generated from field: string match_id = 1;
   */
  matchId: string;
};

/**
 * Describes the message mancala.v1.GetHistoryRequest.
 * Use `create(GetHistoryRequestSchema)` to create a new message.
 */
export const GetHistoryRequestSchema: GenMessage<GetHistoryRequest> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 41);

/**
 * @generated from message mancala.v1.GetHistoryResponse
 */
export type GetHistoryResponse = Message<"mancala.v1.GetHistoryResponse"> & {
  /**
   * The match as it stands.
   *
   * @generated from field: mancala.v1.Match match = 1;
   */
  match?: Match | undefined;

  /**
   * Every event, seq 1 to `match.version`.
   *
   * @generated from field: repeated mancala.v1.MatchEvent events = 2;
   */
  events: MatchEvent[];

  /**
   * The match in compact text notation: a header line `mancala <rules_version> <game> first=<s|n> [target=<n>]`,
   * then one line per event: the seat (`S`, `N`) and the action: a pit index (`S 3`), with Bao la Kete's choices
   * after it (`cw`/`acw`, `kl`/`kr`, `stop`/`safari`), `next` with the chosen pits (`N next 6 7 8`), or `resign`.
   * Replaying it from the header's initial state gives the same final state.
   *
   * @generated from field: string notation = 3;
   */
  notation: string;
};

/**
 * Describes the message mancala.v1.GetHistoryResponse.
 * Use `create(GetHistoryResponseSchema)` to create a new message.
 */
export const GetHistoryResponseSchema: GenMessage<GetHistoryResponse> = /*@__PURE__*/
  messageDesc(file_mancala_v1_matches, 42);

/**
 * Where a match stands, as a whole.
 *
 * @generated from enum mancala.v1.MatchStatus
 */
export enum MatchStatus {
  /**
   * Rejected where a status is required; "any status" in `ListMatchesRequest.status`.
   *
   * @generated from enum value: MATCH_STATUS_UNSPECIFIED = 0;
   */
  UNSPECIFIED = 0,

  /**
   * Moves are accepted (including between games or rounds, where `NextGame` is expected).
   *
   * @generated from enum value: MATCH_STATUS_ACTIVE = 1;
   */
  ACTIVE = 1,

  /**
   * The match is over (played out or resigned); nothing more is accepted. Kept for the configured retention.
   *
   * @generated from enum value: MATCH_STATUS_FINISHED = 2;
   */
  FINISHED = 2,
}

/**
 * Describes the enum mancala.v1.MatchStatus.
 */
export const MatchStatusSchema: GenEnum<MatchStatus> = /*@__PURE__*/
  enumDesc(file_mancala_v1_matches, 0);

/**
 * How a match ended.
 *
 * @generated from enum mancala.v1.MatchEndReason
 */
export enum MatchEndReason {
  /**
   * The match is not over.
   *
   * @generated from enum value: MATCH_END_REASON_UNSPECIFIED = 0;
   */
  UNSPECIFIED = 0,

  /**
   * The rules ended it (`GameState.status` is MATCH_OVER).
   *
   * @generated from enum value: MATCH_END_REASON_PLAYED_OUT = 1;
   */
  PLAYED_OUT = 1,

  /**
   * A seat resigned; the board stays as the last move left it.
   *
   * @generated from enum value: MATCH_END_REASON_RESIGNATION = 2;
   */
  RESIGNATION = 2,

  /**
   * Nobody played for the server's idle expiry (`matches.idle_expiry_ms`): the match ended with no winner. Its
   * last event is an `Expiry`.
   *
   * @generated from enum value: MATCH_END_REASON_EXPIRED = 3;
   */
  EXPIRED = 3,

  /**
   * The seat to move ran out of time; the other seat wins. Its last event is a `Flag`, written by the server
   * the moment the time ran out, whether or not anybody called.
   *
   * @generated from enum value: MATCH_END_REASON_TIME_FORFEIT = 4;
   */
  TIME_FORFEIT = 4,

  /**
   * Called off before each seat had sown once, by a seat (`Abort`) or by the server when an awaited first sowing
   * did not come within the abort time: no winner, no result (it counts in no record and moves no rating). Its
   * last event is an `Abort`.
   *
   * @generated from enum value: MATCH_END_REASON_ABORTED = 5;
   */
  ABORTED = 5,

  /**
   * The seat to move had left (no open stream for `clock.abandon_after_ms`) and the other seat claimed the win
   * (`ClaimVictory`). Its last event is a `Claim` by the winner.
   *
   * @generated from enum value: MATCH_END_REASON_ABANDONED = 6;
   */
  ABANDONED = 6,

  /**
   * A game ended by repetition (§1 "Repetition") and that decided the match (`GameState.status` is MATCH_OVER).
   *
   * @generated from enum value: MATCH_END_REASON_REPETITION = 7;
   */
  REPETITION = 7,

  /**
   * A game ended by agreement (`AgreeToEnd`) and that decided the match.
   *
   * @generated from enum value: MATCH_END_REASON_AGREEMENT = 8;
   */
  AGREEMENT = 8,

  /**
   * The match reached its most games (Bosh: rounds; `GameOptions.max_games`) with no winner by the rules: the
   * leader won it (more games won, Bosh stones, Ba-awa pits), or it is drawn when the leaders are level. The
   * state stays as the last game left it (GAME_OVER or ROUND_OVER).
   *
   * @generated from enum value: MATCH_END_REASON_MATCH_LENGTH = 9;
   */
  MATCH_LENGTH = 9,
}

/**
 * Describes the enum mancala.v1.MatchEndReason.
 */
export const MatchEndReasonSchema: GenEnum<MatchEndReason> = /*@__PURE__*/
  enumDesc(file_mancala_v1_matches, 1);

/**
 * What a seat does about ending the game by agreement.
 *
 * @generated from enum mancala.v1.AgreementAction
 */
export enum AgreementAction {
  /**
   * @generated from enum value: AGREEMENT_ACTION_UNSPECIFIED = 0;
   */
  UNSPECIFIED = 0,

  /**
   * Propose to end the game (or accept the standing proposal).
   *
   * @generated from enum value: AGREEMENT_ACTION_OFFER = 1;
   */
  OFFER = 1,

  /**
   * Agree to another seat's standing proposal.
   *
   * @generated from enum value: AGREEMENT_ACTION_ACCEPT = 2;
   */
  ACCEPT = 2,

  /**
   * Refuse it: the proposal is gone for every seat.
   *
   * @generated from enum value: AGREEMENT_ACTION_DECLINE = 3;
   */
  DECLINE = 3,

  /**
   * Take back this seat's own offer or acceptance.
   *
   * @generated from enum value: AGREEMENT_ACTION_WITHDRAW = 4;
   */
  WITHDRAW = 4,
}

/**
 * Describes the enum mancala.v1.AgreementAction.
 */
export const AgreementActionSchema: GenEnum<AgreementAction> = /*@__PURE__*/
  enumDesc(file_mancala_v1_matches, 2);

/**
 * Why a snapshot was sent.
 *
 * @generated from enum mancala.v1.SnapshotReason
 */
export enum SnapshotReason {
  /**
   * @generated from enum value: SNAPSHOT_REASON_UNSPECIFIED = 0;
   */
  UNSPECIFIED = 0,

  /**
   * The first message of a stream opened without `from_seq`.
   *
   * @generated from enum value: SNAPSHOT_REASON_INITIAL = 1;
   */
  INITIAL = 1,

  /**
   * The watcher fell too far behind; events up to `Match.version` were skipped and the stream goes on from here.
   *
   * @generated from enum value: SNAPSHOT_REASON_RESYNC = 2;
   */
  RESYNC = 2,
}

/**
 * Describes the enum mancala.v1.SnapshotReason.
 */
export const SnapshotReasonSchema: GenEnum<SnapshotReason> = /*@__PURE__*/
  enumDesc(file_mancala_v1_matches, 3);

/**
 * @generated from service mancala.v1.Matches
 */
export const Matches: GenService<{
  /**
   * Start a match: its id and one secret token per seat.
   *
   * @generated from rpc mancala.v1.Matches.CreateMatch
   */
  createMatch: {
    methodKind: "unary";
    input: typeof CreateMatchRequestSchema;
    output: typeof CreateMatchResponseSchema;
  },
  /**
   * The match as it stands now.
   *
   * @generated from rpc mancala.v1.Matches.GetMatch
   */
  getMatch: {
    methodKind: "unary";
    input: typeof GetMatchRequestSchema;
    output: typeof GetMatchResponseSchema;
  },
  /**
   * Matches, filtered by game and status, a page at a time.
   *
   * @generated from rpc mancala.v1.Matches.ListMatches
   */
  listMatches: {
    methodKind: "unary";
    input: typeof ListMatchesRequestSchema;
    output: typeof ListMatchesResponseSchema;
  },
  /**
   * Play a move for the caller's seat (token in metadata).
   *
   * @generated from rpc mancala.v1.Matches.SubmitMove
   */
  submitMove: {
    methodKind: "unary";
    input: typeof SubmitMoveRequestSchema;
    output: typeof SubmitMoveResponseSchema;
  },
  /**
   * Give up the match for the caller's seat (token in metadata).
   *
   * @generated from rpc mancala.v1.Matches.Resign
   */
  resign: {
    methodKind: "unary";
    input: typeof ResignRequestSchema;
    output: typeof ResignResponseSchema;
  },
  /**
   * A live stream of the match: a snapshot (or the missed events when resuming), then every accepted event.
   *
   * @generated from rpc mancala.v1.Matches.WatchMatch
   */
  watchMatch: {
    methodKind: "server_streaming";
    input: typeof WatchMatchRequestSchema;
    output: typeof WatchMatchResponseSchema;
  },
  /**
   * Every event of the match so far, and the match in compact text notation.
   *
   * @generated from rpc mancala.v1.Matches.GetHistory
   */
  getHistory: {
    methodKind: "unary";
    input: typeof GetHistoryRequestSchema;
    output: typeof GetHistoryResponseSchema;
  },
  /**
   * Call the match off before each seat has sown once: it ends with no result (token in metadata).
   *
   * @generated from rpc mancala.v1.Matches.Abort
   */
  abort: {
    methodKind: "unary";
    input: typeof AbortRequestSchema;
    output: typeof AbortResponseSchema;
  },
  /**
   * Win a match the opponent has left: the seat to move has had no open `WatchMatch` stream for the server's
   * abandonment time (`clock.abandon_after_ms`; token in metadata).
   *
   * @generated from rpc mancala.v1.Matches.ClaimVictory
   */
  claimVictory: {
    methodKind: "unary";
    input: typeof ClaimVictoryRequestSchema;
    output: typeof ClaimVictoryResponseSchema;
  },
  /**
   * Offer, accept, decline or withdraw an end of the game being played by agreement (§1 "By agreement"; token in
   * metadata). When every seat still in the game agrees, it ends as by repetition (`END_REASON_AGREEMENT`). An
   * offer lapses when its maker sows; an offer made while another stands accepts it.
   *
   * @generated from rpc mancala.v1.Matches.AgreeToEnd
   */
  agreeToEnd: {
    methodKind: "unary";
    input: typeof AgreeToEndRequestSchema;
    output: typeof AgreeToEndResponseSchema;
  },
}> = /*@__PURE__*/
  serviceDesc(file_mancala_v1_matches, 0);

