//! The runner: every recorded step asked again of a server speaking `mancala.v1.Rules`, every answer compared
//! with the record, every difference reported.
//!
//! Per step: `NewGame` at a match's first step (its state must be the recorded one), `ListLegalMoves` (the whole
//! list, previews and labels included), and for the move played `ValidateMove` (legal) and `ApplyMove` (the
//! state and events of its recorded preview). Answers are compared as proto3 JSON, so a difference is named by
//! its path (`moves[2]{S3}.events[4].capture.seeds`).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tonic::{metadata::MetadataValue, transport::Channel, Request};

use super::diff::differences;
use super::json::Json;
use crate::api::pb::{self, rules_client::RulesClient};

/// The longest pause between two tries of a call the server refused for the runner's pace.
const MAX_PAUSE: Duration = Duration::from_secs(2);

/// One line of a recorded match.
#[derive(Clone, Debug)]
pub struct Step {
    /// The file it was read from.
    pub file: PathBuf,
    /// Its line, from 1.
    pub line: usize,
    /// The line itself.
    pub record: Value,
}

/// The recorded matches of a suite, in file and line order.
#[derive(Clone, Debug, Default)]
pub struct Suite {
    /// One list of steps per file.
    pub files: Vec<(PathBuf, Vec<Step>)>,
}

impl Suite {
    /// Every `*.jsonl` file under `dir`, at any depth, in path order.
    pub fn load(dir: &Path) -> Result<Suite, String> {
        let mut paths = Vec::new();
        collect_jsonl(dir, &mut paths)?;
        if paths.is_empty() {
            return Err(format!("no .jsonl file under {}", dir.display()));
        }
        paths.sort();
        let files = paths
            .into_iter()
            .map(|path| Ok((path.clone(), read_steps(&path)?)))
            .collect::<Result<_, String>>()?;
        Ok(Suite { files })
    }

    /// How many steps the suite holds.
    pub fn steps(&self) -> usize {
        self.files.iter().map(|(_, steps)| steps.len()).sum()
    }
}

fn collect_jsonl(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry
            .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
            .path();
        if path.is_dir() {
            collect_jsonl(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "jsonl") {
            out.push(path);
        }
    }
    Ok(())
}

fn read_steps(path: &Path) -> Result<Vec<Step>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            let record = serde_json::from_str(line)
                .map_err(|e| format!("{}:{}: not JSON: {e}", path.display(), i + 1))?;
            Ok(Step {
                file: path.to_path_buf(),
                line: i + 1,
                record,
            })
        })
        .collect()
}

/// A server's answer that is not the recorded one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// Where the step was recorded: `file:line`.
    pub at: String,
    /// The match and step (`random-1 step 12`).
    pub step: String,
    /// The call that disagreed.
    pub call: &'static str,
    /// What differed: a path and both values, or the call's failure.
    pub detail: String,
}

impl std::fmt::Display for Disagreement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} ({}) {}: {}",
            self.at, self.step, self.call, self.detail
        )
    }
}

/// What a replay found.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Steps replayed.
    pub steps: usize,
    /// Calls made.
    pub calls: usize,
    /// Every difference, in file and line order.
    pub disagreements: Vec<Disagreement>,
}

/// How the runner reaches the server.
#[derive(Clone, Debug)]
pub struct Target {
    /// The channel to it.
    pub channel: Channel,
    /// The `authorization` metadata of every call, when the server wants an API key.
    pub bearer: Option<MetadataValue<tonic::metadata::Ascii>>,
}

/// Replays `suite` against `target`, one task per file, at most `concurrency` at a time.
pub async fn replay(suite: &Suite, target: &Target, concurrency: usize) -> Result<Report, String> {
    let json = Arc::new(Json::new()?);
    let permits = Arc::new(tokio::sync::Semaphore::new(concurrency.max(1)));
    let mut tasks = tokio::task::JoinSet::new();
    for (index, (_, steps)) in suite.files.iter().enumerate() {
        let (steps, json, target, permits) =
            (steps.clone(), json.clone(), target.clone(), permits.clone());
        tasks.spawn(async move {
            let _permit = permits.acquire_owned().await;
            let mut caller = Caller {
                client: RulesClient::new(target.channel.clone()),
                bearer: target.bearer.clone(),
                json,
                report: Report::default(),
            };
            for step in &steps {
                caller.replay_step(step).await;
            }
            (index, caller.report)
        });
    }
    let mut reports = Vec::new();
    while let Some(done) = tasks.join_next().await {
        reports.push(done.map_err(|e| format!("a replay task failed: {e}"))?);
    }
    reports.sort_by_key(|(index, _)| *index);
    let mut report = Report::default();
    for (_, part) in reports {
        report.steps += part.steps;
        report.calls += part.calls;
        report.disagreements.extend(part.disagreements);
    }
    Ok(report)
}

/// One file's replay: its client and what it found.
struct Caller {
    client: RulesClient<Channel>,
    bearer: Option<MetadataValue<tonic::metadata::Ascii>>,
    json: Arc<Json>,
    report: Report,
}

impl Caller {
    fn request<M>(&self, message: M) -> Request<M> {
        let mut request = Request::new(message);
        if let Some(bearer) = &self.bearer {
            request
                .metadata_mut()
                .insert("authorization", bearer.clone());
        }
        request
    }

    /// Sends `message` by `send`, waiting out a server's rate limit (`RESOURCE_EXHAUSTED`, a refusal of the
    /// runner's pace, not an answer about the rules) with a growing pause, up to a few seconds in all.
    async fn call<M, R, F, Fut>(
        &self,
        message: M,
        send: F,
    ) -> Result<tonic::Response<R>, tonic::Status>
    where
        M: Clone,
        F: Fn(RulesClient<Channel>, Request<M>) -> Fut,
        Fut: std::future::Future<Output = Result<tonic::Response<R>, tonic::Status>>,
    {
        let mut pause = Duration::from_millis(10);
        loop {
            let answer = send(self.client.clone(), self.request(message.clone())).await;
            match answer {
                Err(status)
                    if status.code() == tonic::Code::ResourceExhausted && pause < MAX_PAUSE =>
                {
                    tokio::time::sleep(pause).await;
                    pause *= 2;
                }
                answer => return answer,
            }
        }
    }

    fn disagree(&mut self, step: &Step, call: &'static str, detail: String) {
        let name = format!(
            "{} step {}",
            step.record["match"].as_str().unwrap_or("?"),
            step.record["step"]
        );
        self.report.disagreements.push(Disagreement {
            at: format!("{}:{}", step.file.display(), step.line),
            step: name,
            call,
            detail,
        });
    }

    /// Reports each difference between the recorded `expected` and the answer `got`.
    fn compare(
        &mut self,
        step: &Step,
        call: &'static str,
        root: &str,
        expected: &Value,
        got: &Value,
    ) {
        for difference in differences(root, expected, got) {
            self.disagree(step, call, difference);
        }
    }

    /// A recorded message read back, or the step reported as unreadable.
    fn read<M: prost::Message + Default>(
        &mut self,
        step: &Step,
        name: &str,
        value: &Value,
    ) -> Option<M> {
        match self.json.from_value(name, value) {
            Ok(message) => Some(message),
            Err(e) => {
                self.disagree(step, "record", e);
                None
            }
        }
    }

    /// An answer as JSON, or the failure reported.
    fn answer<M: prost::Message>(
        &mut self,
        step: &Step,
        call: &'static str,
        name: &str,
        answer: Result<tonic::Response<M>, tonic::Status>,
    ) -> Option<Value> {
        self.report.calls += 1;
        let message = match answer {
            Ok(response) => response.into_inner(),
            Err(status) => {
                self.disagree(
                    step,
                    call,
                    format!("the call failed: {:?}: {}", status.code(), status.message()),
                );
                return None;
            }
        };
        match self.json.to_value(name, &message) {
            Ok(value) => Some(value),
            Err(e) => {
                self.disagree(step, call, e);
                None
            }
        }
    }

    async fn replay_step(&mut self, step: &Step) {
        self.report.steps += 1;
        let record = &step.record;
        let Some(state) =
            self.read::<pb::GameState>(step, "mancala.v1.GameState", &record["state"])
        else {
            return;
        };
        if let Some(new_game) = record.get("newGame") {
            if let Some(request) =
                self.read::<pb::NewGameRequest>(step, "mancala.v1.NewGameRequest", new_game)
            {
                let answer = self
                    .call(request, |mut c, r| async move { c.new_game(r).await })
                    .await;
                if let Some(got) =
                    self.answer(step, "NewGame", "mancala.v1.NewGameResponse", answer)
                {
                    self.compare(step, "NewGame", "state", &record["state"], &got["state"]);
                }
            }
        }

        let list = pb::ListLegalMovesRequest {
            state: Some(state.clone()),
            skip_previews: false,
        };
        let answer = self
            .call(list, |mut c, r| async move { c.list_legal_moves(r).await })
            .await;
        if let Some(got) = self.answer(
            step,
            "ListLegalMoves",
            "mancala.v1.ListLegalMovesResponse",
            answer,
        ) {
            let none = Value::Array(Vec::new());
            let got_moves = got.get("moves").unwrap_or(&none);
            self.compare(step, "ListLegalMoves", "moves", &record["moves"], got_moves);
        }

        let Some(played) = record.get("played") else {
            return;
        };
        let Some(mv) = self.read::<pb::Move>(step, "mancala.v1.Move", played) else {
            return;
        };
        let validate = pb::ValidateMoveRequest {
            state: Some(state.clone()),
            r#move: Some(mv.clone()),
        };
        let answer = self
            .call(validate, |mut c, r| async move { c.validate_move(r).await })
            .await;
        if let Some(got) = self.answer(
            step,
            "ValidateMove",
            "mancala.v1.ValidateMoveResponse",
            answer,
        ) {
            if got.get("legal") != Some(&Value::Bool(true)) {
                self.disagree(
                    step,
                    "ValidateMove",
                    format!("the move played is legal, but the answer was {got}"),
                );
            }
        }

        let preview = record["moves"]
            .as_array()
            .and_then(|moves| moves.iter().find(|m| m.get("move") == Some(played)))
            .cloned();
        let apply = pb::ApplyMoveRequest {
            state: Some(state),
            r#move: Some(mv),
            skip_events: false,
        };
        let answer = self
            .call(apply, |mut c, r| async move { c.apply_move(r).await })
            .await;
        let got = self.answer(step, "ApplyMove", "mancala.v1.ApplyMoveResponse", answer);
        match (preview, got) {
            (Some(preview), Some(got)) => {
                let none = Value::Array(Vec::new());
                self.compare(
                    step,
                    "ApplyMove",
                    "state",
                    &preview["result"],
                    &got["state"],
                );
                self.compare(
                    step,
                    "ApplyMove",
                    "events",
                    preview.get("events").unwrap_or(&none),
                    got.get("events").unwrap_or(&none),
                );
            }
            (None, _) => self.disagree(
                step,
                "record",
                "the move played is not among the recorded moves".into(),
            ),
            (_, None) => {}
        }
    }
}
