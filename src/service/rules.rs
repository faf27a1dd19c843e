//! `mancala.v1.Rules`: the stateless rules service's handlers. Each decodes its request (the hot calls with
//! [`wire`]'s decoder, straight into engine values), asks [`rules`](crate::rules), where the engine work runs
//! under the pool's policy, and encodes the answer (the hot calls' with [`wire`]'s encoder, straight from the
//! engine's values, in the future [`wire::answer`] makes of it).

use crate::api::search::SearchRequest;
use crate::api::{convert, error, pb, wire};
use crate::config::SearchSettings;
use crate::pool::{EnginePool, Owner};
use crate::rules::Rules;
use crate::service::auth;
use tonic::{Extensions, Request, Response, Status};

/// The stateless rules service.
#[derive(Debug, Clone)]
pub struct RulesService {
    rules: Rules,
    search: SearchSettings,
}

impl RulesService {
    /// The service, running its engine work on `pool`, its searches under the built-in `[search]` caps.
    pub fn new(pool: EnginePool) -> RulesService {
        RulesService {
            rules: Rules::new(pool),
            search: crate::config::Settings::default().search,
        }
    }

    /// This service with the searches of `SuggestMove` and `AnalyzePosition` capped by `settings`.
    pub fn with_search(mut self, settings: SearchSettings) -> RulesService {
        self.search = settings;
        self
    }

    /// A search call's answer: `answer` of the decoded `request`, its search run under the pool's policy for
    /// `owner` ([`Rules::search`]).
    async fn searched<R: Send + 'static>(
        &self,
        owner: Owner,
        request: SearchRequest,
        answer: impl Fn(&SearchRequest) -> Result<R, Status> + Send + 'static,
    ) -> Result<Response<R>, Status> {
        let thinker = request.thinker();
        let searched = self.rules.search(owner, thinker, move || answer(&request));
        error::engine_answer(searched.await).map(Response::new)
    }

    /// The tonic server wrapping this service, whose hot calls are read and answered by [`wire`] (same service,
    /// same bytes on the wire as prost's).
    pub fn into_server(self) -> wire::server::rules_server::RulesServer<Self> {
        wire::server::rules_server::RulesServer::new(self)
    }
}

/// Whose work a call is, should it turn long ([`auth::work_owner`]), from its request's `extensions`: worked out
/// only then.
fn owner(extensions: Extensions) -> impl FnOnce() -> Owner {
    move || {
        auth::work_owner(&Request::from_parts(
            tonic::metadata::MetadataMap::new(),
            extensions,
            (),
        ))
    }
}

/// The hot calls (`ListLegalMoves`, `ValidateMove`, `ApplyMove`) are written as the functions `async_trait` makes
/// of an `async fn`, so that their futures are [`wire`]'s, which hold only the answer when it is decided inline.
#[tonic::async_trait]
impl wire::server::rules_server::Rules for RulesService {
    async fn new_game(
        &self,
        request: Request<pb::NewGameRequest>,
    ) -> Result<Response<pb::NewGameResponse>, Status> {
        let (kind, options) =
            convert::new_game_request(request.get_ref()).map_err(error::invalid_argument)?;
        let game = Rules::new_game(kind, &options);
        Ok(Response::new(pb::NewGameResponse {
            state: Some(convert::state_to_pb(&game)),
        }))
    }

    fn list_legal_moves<'life0, 'async_trait>(
        &'life0 self,
        request: Request<wire::ListLegalMovesCall>,
    ) -> wire::AnswerFuture<'async_trait, wire::ListLegalMovesAnswer>
    where
        'life0: 'async_trait,
        Self: 'async_trait,
    {
        let (_, extensions, request) = request.into_parts();
        let (state, with_previews) = request.into_engine();
        wire::answer(
            self.rules
                .list_legal_moves(state, owner(extensions), move |game| {
                    wire::list_legal_moves(game, with_previews)
                }),
        )
    }

    fn validate_move<'life0, 'async_trait>(
        &'life0 self,
        request: Request<wire::ValidateMoveCall>,
    ) -> wire::AnswerFuture<'async_trait, wire::ValidateMoveAnswer>
    where
        'life0: 'async_trait,
        Self: 'async_trait,
    {
        let (_, extensions, request) = request.into_parts();
        let request = request.into_engine();
        // The verdict as it is: `validate_move_answer` answers a legal move with fixed bytes, encoding only the
        // others.
        wire::validate_move_answer(self.rules.validate_move(
            request,
            owner(extensions),
            |verdict| verdict,
        ))
    }

    fn apply_move<'life0, 'async_trait>(
        &'life0 self,
        request: Request<wire::ApplyMoveCall>,
    ) -> wire::AnswerFuture<'async_trait, wire::ApplyMoveAnswer>
    where
        'life0: 'async_trait,
        Self: 'async_trait,
    {
        let (_, extensions, request) = request.into_parts();
        let (request, skip_events) = request.into_engine();
        wire::answer(self.rules.apply_move(
            request,
            skip_events,
            owner(extensions),
            wire::apply_move,
        ))
    }

    async fn suggest_move(
        &self,
        request: Request<pb::SuggestMoveRequest>,
    ) -> Result<Response<pb::SuggestMoveResponse>, Status> {
        let owner = auth::work_owner(&request);
        let (request, with_preview) =
            SearchRequest::suggest_move(request.into_inner(), &self.search);
        self.searched(owner, request, move |r| r.suggestion(with_preview))
            .await
    }

    async fn analyze_position(
        &self,
        request: Request<pb::AnalyzePositionRequest>,
    ) -> Result<Response<pb::AnalyzePositionResponse>, Status> {
        let owner = auth::work_owner(&request);
        let (request, with_previews) =
            SearchRequest::analyze_position(request.into_inner(), &self.search);
        self.searched(owner, request, move |r| r.analysis(with_previews))
            .await
    }

    async fn describe_game(
        &self,
        request: Request<pb::DescribeGameRequest>,
    ) -> Result<Response<pb::DescribeGameResponse>, Status> {
        let kind = convert::game_kind("kind", request.into_inner().kind)
            .map_err(error::invalid_argument)?;
        Ok(Response::new(convert::description_to_pb(&Rules::describe(
            kind,
        ))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::wire::decode::Call;
    use crate::api::wire::server::rules_server::Rules as WireRules;
    use crate::engine::{AnyGame, GameKind, Options};
    use prost::Message;
    use std::task::{Context, Poll};

    /// The hot calls decided inline hand over their answer in a future that holds only it (a legal move's,
    /// nothing): not the pool's wait, built on the stack and copied into the box at every call
    /// (`api::wire::reference` proves the answers themselves equal to prost's).
    #[test]
    fn the_hot_calls_futures_hold_only_their_answers() {
        let settings = crate::config::Settings::default();
        let rules = RulesService::new(EnginePool::new(&settings.engine, Default::default()));
        let game = AnyGame::new_match(GameKind::Bosh, &Options::default());
        let state = Some(convert::state_to_pb(&game));
        let legal = Some(convert::move_to_pb(&game.legal_moves()[0]));
        let validate = |mv: Option<pb::Move>| {
            let bytes = pb::ValidateMoveRequest {
                state: state.clone(),
                r#move: mv,
            }
            .encode_to_vec();
            WireRules::validate_move(&rules, Request::new(Call::decode(&bytes[..]).unwrap()))
        };
        let legal_move = validate(legal.clone());
        assert_eq!(
            std::mem::size_of_val(&*legal_move),
            0,
            "a legal move's answer"
        );
        let no_state = validate(None);
        assert!(std::mem::size_of_val(&*no_state) <= 32, "an error");
        let bytes = pb::ApplyMoveRequest {
            state: state.clone(),
            r#move: legal,
            skip_events: false,
        }
        .encode_to_vec();
        let applied =
            WireRules::apply_move(&rules, Request::new(Call::decode(&bytes[..]).unwrap()));
        assert!(
            std::mem::size_of_val(&*applied) <= 32,
            "an ApplyMove answer"
        );
        // And they answer what the calls answer.
        fn answer<R>(mut call: wire::AnswerFuture<'_, R>) -> Result<Response<R>, Status> {
            match call
                .as_mut()
                .poll(&mut Context::from_waker(std::task::Waker::noop()))
            {
                Poll::Ready(answer) => answer,
                Poll::Pending => panic!("an answered call is ready"),
            }
        }
        assert!(answer(legal_move).unwrap().get_ref().is_legal_move());
        let refused = answer(no_state).unwrap_err();
        assert_eq!(refused.code(), tonic::Code::InvalidArgument);
        assert!(!answer(applied).unwrap().get_ref().as_bytes().is_empty());
    }
}
