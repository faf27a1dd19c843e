//! The conformance runner (docs/conformance.md) over a real channel: the recorded suite agrees with this server,
//! and a server that gets one capture wrong is caught, at every step where that capture shows.

use crate::support::server::{within, TestServer};
use mancala::api::pb::{
    self,
    rules_client::RulesClient,
    rules_server::{Rules, RulesServer},
};
use mancala::conformance::replay::{replay, Suite, Target};
use std::path::Path;
use tonic::{transport::Channel, Request, Response, Status};

/// The suite's files these tests replay: one of each game, three-player Ba-awa among them (the whole suite is
/// replayed against the binary by `.ci/conformance`).
const FILES: [&str; 3] = [
    "bosh.jsonl",
    "ba_awa-three-players.jsonl",
    "bao_la_kete.jsonl",
];

fn suite(files: &[&str]) -> Suite {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance/rules-v1");
    let whole = Suite::load(&dir).expect("the committed suite loads");
    Suite {
        files: whole
            .files
            .into_iter()
            .filter(|(path, _)| files.iter().any(|f| path.ends_with(f)))
            .collect(),
    }
}

/// A Rules server that answers as the real one does except for one rule: the first capture of each answer is
/// credited to the other player. What a port that mixed up whose capture it is would answer.
struct OneCaptureWrong {
    real: RulesClient<Channel>,
}

/// Credits the first capture among `events` to the other player; whether there was one.
fn credit_the_wrong_player(events: &mut [pb::Event]) -> bool {
    for event in events {
        if let Some(pb::event::Kind::Capture(capture)) = &mut event.kind {
            capture.beneficiary = if capture.beneficiary == pb::Player::South as i32 {
                pb::Player::North as i32
            } else {
                pb::Player::South as i32
            };
            return true;
        }
    }
    false
}

#[tonic::async_trait]
impl Rules for OneCaptureWrong {
    async fn new_game(
        &self,
        request: Request<pb::NewGameRequest>,
    ) -> Result<Response<pb::NewGameResponse>, Status> {
        self.real.clone().new_game(request.into_inner()).await
    }

    async fn list_legal_moves(
        &self,
        request: Request<pb::ListLegalMovesRequest>,
    ) -> Result<Response<pb::ListLegalMovesResponse>, Status> {
        let mut answer = self
            .real
            .clone()
            .list_legal_moves(request.into_inner())
            .await?
            .into_inner();
        for legal in &mut answer.moves {
            credit_the_wrong_player(&mut legal.events);
        }
        Ok(Response::new(answer))
    }

    async fn validate_move(
        &self,
        request: Request<pb::ValidateMoveRequest>,
    ) -> Result<Response<pb::ValidateMoveResponse>, Status> {
        self.real.clone().validate_move(request.into_inner()).await
    }

    async fn apply_move(
        &self,
        request: Request<pb::ApplyMoveRequest>,
    ) -> Result<Response<pb::ApplyMoveResponse>, Status> {
        let mut answer = self
            .real
            .clone()
            .apply_move(request.into_inner())
            .await?
            .into_inner();
        credit_the_wrong_player(&mut answer.events);
        Ok(Response::new(answer))
    }

    async fn describe_game(
        &self,
        request: Request<pb::DescribeGameRequest>,
    ) -> Result<Response<pb::DescribeGameResponse>, Status> {
        self.real.clone().describe_game(request.into_inner()).await
    }

    async fn suggest_move(
        &self,
        request: Request<pb::SuggestMoveRequest>,
    ) -> Result<Response<pb::SuggestMoveResponse>, Status> {
        self.real.clone().suggest_move(request.into_inner()).await
    }

    async fn analyze_position(
        &self,
        request: Request<pb::AnalyzePositionRequest>,
    ) -> Result<Response<pb::AnalyzePositionResponse>, Status> {
        self.real
            .clone()
            .analyze_position(request.into_inner())
            .await
    }
}

/// Serves `double` on 127.0.0.1:0 and returns a channel to it.
async fn serve(double: OneCaptureWrong) -> Channel {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(
        tonic::transport::Server::builder()
            .add_service(RulesServer::new(double))
            .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(listener)),
    );
    within(
        Channel::from_shared(format!("http://{addr}"))
            .expect("uri")
            .connect(),
    )
    .await
    .expect("connect")
}

#[tokio::test]
async fn the_recorded_suite_agrees_with_this_server() {
    let server = TestServer::start().await;
    let suite = suite(&FILES);
    assert_eq!(suite.files.len(), FILES.len());
    let target = Target {
        channel: server.channel.clone(),
        bearer: None,
    };
    let report = within(replay(&suite, &target, 3)).await.expect("replays");
    assert_eq!(report.steps, suite.steps());
    assert!(
        report.disagreements.is_empty(),
        "{:#?}",
        report.disagreements
    );
}

#[tokio::test]
async fn a_server_that_credits_a_capture_to_the_wrong_player_is_caught() {
    let server = TestServer::start().await;
    let double = serve(OneCaptureWrong {
        real: server.rules(),
    })
    .await;
    let suite = suite(&["bosh.jsonl"]);
    let report = within(replay(
        &suite,
        &Target {
            channel: double,
            bearer: None,
        },
        1,
    ))
    .await
    .expect("replays");
    assert!(
        !report.disagreements.is_empty(),
        "the wrong captures went unnoticed"
    );
    // Every disagreement is that capture, named by its path; nothing else is reported.
    for disagreement in &report.disagreements {
        assert!(
            matches!(disagreement.call, "ListLegalMoves" | "ApplyMove"),
            "{disagreement}"
        );
        assert!(
            disagreement
                .detail
                .contains(".capture.beneficiary: recorded"),
            "{disagreement}"
        );
    }
    // Each move played that captures is caught by ApplyMove as well as by its preview.
    assert!(report
        .disagreements
        .iter()
        .any(|d| d.call == "ApplyMove" && d.detail.starts_with("events[")));
}

#[test]
fn the_committed_suite_is_what_the_recorder_writes() {
    // Recorded, not written by hand: the recorder makes the committed file again, byte for byte.
    let json = mancala::conformance::json::Json::new().expect("descriptors");
    let bosh = mancala::conformance::record::recordings()
        .into_iter()
        .find(|r| r.name == "bosh")
        .expect("a Bosh recording");
    let mut made = String::new();
    for line in mancala::conformance::record::recording_lines(&json, &bosh).expect("records") {
        made.push_str(&line.to_string());
        made.push('\n');
    }
    let committed = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance/rules-v1/bosh.jsonl"),
    )
    .expect("the committed file");
    assert!(made == committed, "conformance/rules-v1/bosh.jsonl differs from what `mancala conformance --record conformance` writes");
}
