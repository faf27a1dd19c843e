//! `mancala.v1.Matches`: server-held matches. Thin handlers: decode the request and the seat token,
//! call the match manager ([`crate::matches::Matches`]), encode the answer or the error.

use super::auth::{address, caller, party};
use crate::api::matches::{event_pb, match_pb, summary_pb, time_control, Wire};
use crate::api::{convert, error, pb};
use crate::engine::{position_line, AnyGame, GameKind, Options, Violation};
use crate::identity::tokens::player_id_problem;
use crate::identity::{Address, Caller, Party};
use crate::lobby::Lobby;
use crate::matches::{Access, MatchError, Matches, Owner};
use crate::rules::Rules;
use crate::store::{Action, BotSeat, SEATS};
use std::pin::Pin;
use tokio_stream::{Stream, StreamExt};
use tonic::{Request, Response, Status};

/// The Matches service.
#[derive(Debug, Clone)]
pub struct MatchesService {
    matches: Matches<Wire>,
    lobby: Option<Lobby<Wire>>,
    rules: Option<Rules>,
}

impl MatchesService {
    /// A service over `matches`.
    pub fn new(matches: Matches<Wire>) -> Self {
        MatchesService {
            matches,
            lobby: None,
            rules: None,
        }
    }

    /// Works out the previews of `WatchMatchRequest.previews` with `rules` (`ListLegalMoves`' engine work, on its
    /// engine pool and under its budget).
    pub fn with_previews(mut self, rules: Rules) -> Self {
        self.rules = Some(rules);
        self
    }

    /// Lists a player's matches (`ListMatchesRequest.player_id`) from `lobby`'s record.
    pub fn with_lobby(mut self, lobby: Lobby<Wire>) -> Self {
        self.lobby = Some(lobby);
        self
    }

    /// A page of `player`'s matches, newest first, from the lobby's record; the page token is the lobby's mark.
    async fn list_of_player(
        &self,
        tenant: &str,
        player: &str,
        kind: Option<crate::engine::GameKind>,
        finished: Option<bool>,
        request: &pb::ListMatchesRequest,
    ) -> Result<pb::ListMatchesResponse, Status> {
        let invalid = |field: &str, description: String| {
            error::invalid_argument(vec![Violation {
                field: field.into(),
                description,
            }])
        };
        if let Some(problem) = player_id_problem(&request.player_id) {
            return Err(invalid("player_id", problem));
        }
        let Some(lobby) = &self.lobby else {
            return Err(Status::unimplemented(
                "this server keeps no lobby: ListMatches by player is not served",
            ));
        };
        let before = match request.page_token.as_str() {
            "" => None,
            token => Some(
                token
                    .strip_prefix('p')
                    .and_then(|n| n.parse().ok())
                    .ok_or_else(|| {
                        invalid(
                            "page_token",
                            "not a page token of ListMatches by player".into(),
                        )
                    })?,
            ),
        };
        let limit = match request.page_size as usize {
            0 => crate::matches::DEFAULT_PAGE_SIZE,
            n => n.min(crate::matches::MAX_PAGE_SIZE),
        };
        let (ids, next) = lobby
            .matches_of(tenant, player, kind, finished, before, limit)
            .await
            .map_err(error::lobby_error)?;
        let summaries = self
            .matches
            .summaries(tenant, ids)
            .await
            .map_err(error::match_error)?;
        Ok(pb::ListMatchesResponse {
            matches: summaries.iter().map(summary_pb).collect(),
            next_page_token: next.map(|mark| format!("p{mark}")).unwrap_or_default(),
        })
    }

    /// The tonic server wrapping this service.
    pub fn into_server(self) -> pb::matches_server::MatchesServer<Self> {
        pb::matches_server::MatchesServer::new(self)
    }
}

/// `response` with the previews of the legal moves of the state it carries (a snapshot's or an event's), as the
/// Rules service's `ListLegalMoves` answers them; other messages as they are.
async fn with_previews(
    rules: &Rules,
    mut response: pb::WatchMatchResponse,
) -> Result<pb::WatchMatchResponse, Status> {
    use pb::watch_match_response::Kind;
    let (state, legal, previews) = match &mut response.kind {
        Some(Kind::Snapshot(pb::MatchSnapshot {
            r#match: Some(m), ..
        })) => (m.state.clone(), m.legal_moves.is_empty(), &mut m.previews),
        Some(Kind::Event(event)) => (
            event.state.clone(),
            event.legal_moves.is_empty(),
            &mut event.previews,
        ),
        _ => return Ok(response),
    };
    if legal {
        return Ok(response);
    }
    // Whose work it is, should it turn long: a caller of no credential or address, as an in-process call is.
    let owner = || super::auth::work_owner(&Request::new(()));
    let state = convert::state_setup("state", state);
    *previews = rules
        .list_legal_moves(state, owner, |game| convert::legal_moves_to_pb(game, true))
        .settled()
        .await
        .map_err(error::refusal)?;
    Ok(response)
}

/// Who calls, as the interceptor left it in the request: the credential's caller, the client's address and the
/// share of the tenant the caller spends.
struct Who {
    caller: Caller,
    address: Option<Address>,
    party: Option<Party>,
}

impl Who {
    fn of<T>(request: &Request<T>) -> Result<Who, Status> {
        Ok(Who {
            caller: caller(request)?,
            address: address(request),
            party: party(request),
        })
    }

    /// The match manager's view of the caller.
    fn access(&self) -> Access<'_> {
        let (address, party) = (self.address, self.party.as_ref());
        match &self.caller {
            Caller::Anonymous(tenant) | Caller::Tenant { tenant, .. } => Access {
                tenant: Some(tenant.id()),
                address,
                party,
                ..Access::default()
            },
            Caller::Player { tenant, player } => Access {
                tenant: Some(tenant.id()),
                player: Some(player),
                seat_token: None,
                address,
                party,
            },
            Caller::Seat(token) => Access {
                seat_token: Some(token),
                address,
                ..Access::default()
            },
        }
    }
}

/// A seat of a match with `seats` seats: South or North, or East in three-player Ba-awa; else the violation of
/// `field`.
fn seat_of(value: i32, seats: usize, field: String) -> Result<crate::engine::Player, Violation> {
    match convert::player_from_pb(value) {
        Some(seat) if seat.index() < seats => Ok(seat),
        _ => Err(Violation {
            field,
            description: if seats == 3 {
                "must be PLAYER_SOUTH, PLAYER_EAST or PLAYER_NORTH".into()
            } else {
                "must be PLAYER_SOUTH or PLAYER_NORTH (East sits only in three-player Ba-awa)"
                    .into()
            },
        }),
    }
}

/// The refusal of a list of seats longer than any match has, from its length alone: its entries are not read,
/// so that a request of a million entries costs no million checks (nor a million violations).
fn too_many_seats(field: &str, len: usize) -> Result<(), Vec<Violation>> {
    if len <= SEATS {
        return Ok(());
    }
    Err(vec![Violation {
        field: field.into(),
        description: format!("lists {len} seats; a match has at most {SEATS}"),
    }])
}

/// `CreateMatchRequest.start` decoded and checked against the request's kind and options, with the options the
/// match then has: what the position says taken from it ([`position_line::match_options`]), refused where the
/// request's options say otherwise.
fn start_position(
    state: pb::GameState,
    kind: Option<GameKind>,
    requested: Option<&pb::GameOptions>,
    options: Options,
) -> Result<(AnyGame, Options), Vec<Violation>> {
    let violation = |field: &str, description: String| Violation {
        field: field.into(),
        description,
    };
    let game = convert::game_state("start", Some(state))
        .map_err(|convert::DecodeError::Invalid(violations)| violations)?;
    if let Some(kind) = kind.filter(|&kind| kind != game.kind()) {
        return Err(vec![violation(
            "start.kind",
            format!(
                "the position is a game of {}, and the match one of {}",
                game.kind().name(),
                kind.name()
            ),
        )]);
    }
    let agreed = position_line::match_options(options, &game)
        .map_err(|(field, problem)| vec![violation(field, problem)])?;
    let mut violations = Vec::new();
    if let Some(o) = requested {
        let target = u32::from(agreed.ba_awa_target);
        if o.ba_awa_target != 0 && o.ba_awa_target != target {
            violations.push(violation(
                "options.ba_awa_target",
                format!(
                    "{} is not the start position's target, {target}",
                    o.ba_awa_target
                ),
            ));
        }
        let players = u32::from(agreed.ba_awa_players);
        if o.ba_awa_players != 0 && o.ba_awa_players != players {
            violations.push(violation(
                "options.ba_awa_players",
                format!(
                    "the start position is a game of {players} players, not {}",
                    o.ba_awa_players
                ),
            ));
        }
        let rule = convert::starter_rule_to_pb(agreed.bao_la_kete_starter) as i32;
        if o.bao_la_kete_starter != pb::StarterRule::Unspecified as i32
            && o.bao_la_kete_starter != rule
        {
            violations.push(violation(
                "options.bao_la_kete_starter",
                "the start position says who begins later games otherwise (R-2.12)".into(),
            ));
        }
    }
    if violations.is_empty() {
        Ok((game, agreed))
    } else {
        Err(violations)
    }
}

/// The seats to bind, `[South, North, East]`, from `CreateMatchRequest.players`, for a match of `seats` seats.
fn seat_players(
    players: &[pb::SeatPlayer],
    seats_in_game: usize,
) -> Result<[Option<String>; SEATS], Vec<Violation>> {
    too_many_seats("players", players.len())?;
    let mut seats: [Option<String>; SEATS] = [None, None, None];
    let mut violations = Vec::new();
    for (i, binding) in players.iter().enumerate() {
        let field = |name: &str| format!("players[{i}].{name}");
        let seat = match seat_of(binding.player, seats_in_game, field("player")) {
            Ok(seat) => seat,
            Err(violation) => {
                violations.push(violation);
                continue;
            }
        };
        if let Some(problem) = player_id_problem(&binding.player_id) {
            violations.push(Violation {
                field: field("player_id"),
                description: problem,
            });
            continue;
        }
        if seats[seat.index()].is_some() {
            violations.push(Violation {
                field: field("player"),
                description: format!("{seat} is bound twice"),
            });
            continue;
        }
        seats[seat.index()] = Some(binding.player_id.clone());
    }
    let bound: Vec<&String> = seats.iter().flatten().collect();
    if (1..bound.len()).any(|i| bound[..i].contains(&bound[i])) {
        violations.push(Violation {
            field: "players".into(),
            description: "one player cannot hold two seats".into(),
        });
    }
    if violations.is_empty() {
        Ok(seats)
    } else {
        Err(violations)
    }
}

/// The seats the server plays, `[South, North, East]`, from `CreateMatchRequest.bots`, at most `max_level`
/// strong, for a match of `seats_in_game` seats; a seat also in `players` is refused.
fn seat_bots(
    bots: &[pb::SeatBot],
    players: &[pb::SeatPlayer],
    max_level: Option<u32>,
    seats_in_game: usize,
) -> Result<[Option<BotSeat>; SEATS], Vec<Violation>> {
    too_many_seats("bots", bots.len())?;
    let mut seats = [None, None, None];
    let mut violations = Vec::new();
    for (i, bot) in bots.iter().enumerate() {
        let field = |name: &str| format!("bots[{i}].{name}");
        let seat = match seat_of(bot.player, seats_in_game, field("player")) {
            Ok(seat) => seat,
            Err(violation) => {
                violations.push(violation);
                continue;
            }
        };
        let Some(max_level) = max_level else {
            violations.push(Violation {
                field: format!("bots[{i}]"),
                description: "this server plays no bot seats".into(),
            });
            continue;
        };
        if !(1..=max_level).contains(&bot.level) {
            violations.push(Violation {
                field: field("level"),
                description: format!("a bot's level is 1 to {max_level} on this server"),
            });
            continue;
        }
        if seats[seat.index()].is_some() {
            violations.push(Violation {
                field: field("player"),
                description: format!("{seat} is given a bot twice"),
            });
            continue;
        }
        if players.iter().any(|p| p.player == bot.player) {
            violations.push(Violation {
                field: field("player"),
                description: format!(
                    "{seat} is bound to a player in `players`; a seat is a player's or a bot's"
                ),
            });
            continue;
        }
        seats[seat.index()] = Some(BotSeat {
            level: bot.level,
            seed: bot.seed,
        });
    }
    if violations.is_empty() {
        Ok(seats)
    } else {
        Err(violations)
    }
}

/// Names the match in the call's log line.
fn record_match(id: &str) {
    tracing::Span::current().record("match_id", id);
}

impl MatchesService {
    /// The body of `Resign`, `Abort`, `ClaimVictory` and `AgreeToEnd`: `action` for the caller's seat, from the match id,
    /// expected version and request id that `parts` takes out of the request; the event answered.
    async fn end_for_seat<R>(
        &self,
        request: Request<R>,
        action: Action,
        parts: impl FnOnce(R) -> (String, Option<u64>, String),
    ) -> Result<Option<pb::MatchEvent>, Status> {
        let who = Who::of(&request)?;
        let (match_id, expected_version, request_id) = parts(request.into_inner());
        record_match(&match_id);
        let event = self
            .matches
            .submit(
                &who.access(),
                &match_id,
                action,
                expected_version,
                request_id,
            )
            .await
            .map_err(error::match_error)?;
        Ok(Some(event_pb(&event)))
    }
}

/// The response stream of `WatchMatch`.
pub type WatchMatchStream =
    Pin<Box<dyn Stream<Item = Result<pb::WatchMatchResponse, Status>> + Send>>;

#[tonic::async_trait]
impl pb::matches_server::Matches for MatchesService {
    async fn create_match(
        &self,
        request: Request<pb::CreateMatchRequest>,
    ) -> Result<Response<pb::CreateMatchResponse>, Status> {
        let who = Who::of(&request)?;
        let caller = &who.caller;
        let Some(tenant) = caller.tenant() else {
            return Err(Status::permission_denied(
                "a seat token cannot create matches: send an API key or a player token",
            ));
        };
        let request = request.into_inner();
        if tenant.id().is_empty() && !request.players.is_empty() {
            return Err(error::invalid_argument(vec![Violation {
                field: "players".into(),
                description: "seats are bound to players of a tenant: send its API key (the anonymous tenant has no players)".into(),
            }]));
        }
        let kind = convert::game_kind("kind", request.kind);
        let options = convert::options(kind.as_ref().ok().copied(), request.options.as_ref());
        // A start position rules what it says (Ba-awa's players among it), so it is read before the seats are.
        let (start, options) = match (request.start, options) {
            (Some(state), Ok(options)) => {
                let requested = request.options.as_ref();
                match start_position(state, kind.as_ref().ok().copied(), requested, options) {
                    Ok((game, options)) => (Ok(Some(game)), Ok(options)),
                    Err(violations) => (Err(violations), Ok(options)),
                }
            }
            (_, options) => (Ok(None), options),
        };
        let seats = match (&kind, &options) {
            (Ok(kind), Ok(options)) => options.seats(*kind),
            _ => 2,
        };
        let players = seat_players(&request.players, seats);
        let bots = seat_bots(
            &request.bots,
            &request.players,
            self.matches.max_bot_level(),
            seats,
        );
        let (kind, options, players, bots, start) = match (kind, options, players, bots, start) {
            (Ok(kind), Ok(options), Ok(players), Ok(bots), Ok(start)) => {
                (kind, options, players, bots, start)
            }
            (kind, options, players, bots, start) => {
                let violations = kind
                    .err()
                    .into_iter()
                    .chain(options.err())
                    .chain(start.err())
                    .chain(players.err())
                    .chain(bots.err())
                    .flatten()
                    .collect();
                return Err(error::invalid_argument(violations));
            }
        };
        let owner = Owner {
            tenant: tenant.id().to_string(),
            players,
            bots,
            time_control: time_control(request.time_control.as_ref()),
            creator: who.party.clone(),
        };
        let created = match start {
            Some(start) => self.matches.create_from(start, options, owner).await,
            None => self.matches.create(kind, options, owner).await,
        }
        .map_err(error::match_error)?;
        record_match(&created.view.id.to_string());
        let tokens = crate::engine::Player::ALL
            .into_iter()
            .zip(created.tokens)
            .filter_map(|(seat, token)| {
                Some(pb::SeatToken {
                    player: convert::player_to_pb(Some(seat)),
                    token: token?,
                })
            })
            .collect();
        Ok(Response::new(pb::CreateMatchResponse {
            r#match: Some(match_pb(&created.view)),
            tokens,
        }))
    }

    async fn get_match(
        &self,
        request: Request<pb::GetMatchRequest>,
    ) -> Result<Response<pb::GetMatchResponse>, Status> {
        let who = Who::of(&request)?;
        let id = request.into_inner().match_id;
        record_match(&id);
        let view = self
            .matches
            .get(&who.access(), &id)
            .await
            .map_err(error::match_error)?;
        Ok(Response::new(pb::GetMatchResponse {
            r#match: Some(match_pb(&view)),
        }))
    }

    async fn list_matches(
        &self,
        request: Request<pb::ListMatchesRequest>,
    ) -> Result<Response<pb::ListMatchesResponse>, Status> {
        let who = Who::of(&request)?;
        let caller = &who.caller;
        let Some(tenant) = caller.tenant() else {
            return Err(Status::permission_denied(
                "a seat token opens its own match only: send an API key or a player token to list matches",
            ));
        };
        let request = request.into_inner();
        let kind = match request.kind {
            0 => None,
            kind => Some(convert::game_kind("kind", kind).map_err(error::invalid_argument)?),
        };
        let finished = match pb::MatchStatus::try_from(request.status) {
            Ok(pb::MatchStatus::Unspecified) => None,
            Ok(pb::MatchStatus::Active) => Some(false),
            Ok(pb::MatchStatus::Finished) => Some(true),
            Err(_) => {
                return Err(error::invalid_argument(vec![crate::engine::Violation {
                    field: "status".into(),
                    description: format!("{} is not a MatchStatus", request.status),
                }]))
            }
        };
        if !request.player_id.is_empty() {
            let answer = self
                .list_of_player(tenant.id(), &request.player_id, kind, finished, &request)
                .await?;
            return Ok(Response::new(answer));
        }
        let (matches, next_page_token) = self
            .matches
            .list(
                tenant.id(),
                kind,
                finished,
                request.page_size as usize,
                &request.page_token,
            )
            .await
            .map_err(error::match_error)?;
        Ok(Response::new(pb::ListMatchesResponse {
            matches: matches.iter().map(summary_pb).collect(),
            next_page_token,
        }))
    }

    async fn submit_move(
        &self,
        request: Request<pb::SubmitMoveRequest>,
    ) -> Result<Response<pb::SubmitMoveResponse>, Status> {
        let who = Who::of(&request)?;
        let request = request.into_inner();
        record_match(&request.match_id);
        let seated = self
            .matches
            .seated(&who.access(), &request.match_id, request.request_id)
            .await
            .map_err(error::match_error)?;
        // Decoded for the match's game once its seat is known, as the proto orders the checks.
        let mv = convert::game_move("move", seated.kind(), request.r#move.as_ref()).map_err(
            |violations| error::match_error(seated.refuse(MatchError::Invalid(violations))),
        )?;
        let event = seated
            .act(Action::Move(mv), request.expected_version)
            .await
            .map_err(error::match_error)?;
        Ok(Response::new(pb::SubmitMoveResponse {
            event: Some(event_pb(&event)),
        }))
    }

    async fn resign(
        &self,
        request: Request<pb::ResignRequest>,
    ) -> Result<Response<pb::ResignResponse>, Status> {
        let event = self
            .end_for_seat(request, Action::Resign, |r| {
                (r.match_id, r.expected_version, r.request_id)
            })
            .await?;
        Ok(Response::new(pb::ResignResponse { event }))
    }

    async fn abort(
        &self,
        request: Request<pb::AbortRequest>,
    ) -> Result<Response<pb::AbortResponse>, Status> {
        let event = self
            .end_for_seat(request, Action::Abort, |r| {
                (r.match_id, r.expected_version, r.request_id)
            })
            .await?;
        Ok(Response::new(pb::AbortResponse { event }))
    }

    async fn claim_victory(
        &self,
        request: Request<pb::ClaimVictoryRequest>,
    ) -> Result<Response<pb::ClaimVictoryResponse>, Status> {
        let event = self
            .end_for_seat(request, Action::Claim, |r| {
                (r.match_id, r.expected_version, r.request_id)
            })
            .await?;
        Ok(Response::new(pb::ClaimVictoryResponse { event }))
    }

    async fn agree_to_end(
        &self,
        request: Request<pb::AgreeToEndRequest>,
    ) -> Result<Response<pb::AgreeToEndResponse>, Status> {
        let Some(agreement) = crate::api::matches::agreement_action(request.get_ref().action)
        else {
            return Err(error::invalid_argument(vec![Violation {
                field: "action".into(),
                description: format!(
                    "AgreementAction {} is not an action: OFFER, ACCEPT, DECLINE or WITHDRAW",
                    request.get_ref().action
                ),
            }]));
        };
        let event = self
            .end_for_seat(request, Action::Agreement(agreement), |r| {
                (r.match_id, r.expected_version, r.request_id)
            })
            .await?;
        Ok(Response::new(pb::AgreeToEndResponse { event }))
    }

    type WatchMatchStream = WatchMatchStream;

    async fn watch_match(
        &self,
        request: Request<pb::WatchMatchRequest>,
    ) -> Result<Response<WatchMatchStream>, Status> {
        let who = Who::of(&request)?;
        let request = request.into_inner();
        record_match(&request.match_id);
        let stream = self
            .matches
            .watch(&who.access(), &request.match_id, request.from_seq)
            .await
            .map_err(error::match_error)?;
        let stream = stream.map(|item: Result<pb::WatchMatchResponse, MatchError>| {
            item.map_err(error::match_error)
        });
        if !request.previews {
            return Ok(Response::new(Box::pin(stream)));
        }
        let Some(rules) = self.rules.clone() else {
            return Err(Status::unimplemented(
                "this server works out no previews for WatchMatch",
            ));
        };
        // One message at a time, in order: each waits for its previews.
        let stream = stream.then(move |item| {
            let rules = rules.clone();
            async move { with_previews(&rules, item?).await }
        });
        Ok(Response::new(Box::pin(stream)))
    }

    async fn get_history(
        &self,
        request: Request<pb::GetHistoryRequest>,
    ) -> Result<Response<pb::GetHistoryResponse>, Status> {
        let who = Who::of(&request)?;
        let id = request.into_inner().match_id;
        record_match(&id);
        let history = self
            .matches
            .history(&who.access(), &id)
            .await
            .map_err(error::match_error)?;
        Ok(Response::new(pb::GetHistoryResponse {
            r#match: Some(match_pb(&history.view)),
            events: history.events.iter().map(event_pb).collect(),
            notation: history.notation,
        }))
    }
}
