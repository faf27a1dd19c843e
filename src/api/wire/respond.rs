//! The futures the server's Rules handlers return (tonic's generated trait wants a boxed future, as
//! `async_trait` makes of an `async fn`), made so that a call decided inline costs no more than its answer.
//!
//! An `async fn` handler's future holds the request, the job and the pool's wait (over 700 bytes), built on the
//! stack and copied into the box at every call: about 300 instructions a call more, which an Echo does not spend.
//! When the engine decides inline, as it nearly always does ([`Decided::Now`]), the answer is worked out before
//! the future is made, and the future only hands it over: [`Answered`] holds the answer (24 bytes), and a legal
//! move's answer, always the same bytes, is [`LegalMove`], which holds nothing, so that boxing it allocates
//! nothing either. Only a call that runs long boxes the wait.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use tonic::{Response, Status};

use super::ValidateMoveAnswer;
use crate::api::error;
use crate::engine::IllegalMove;
use crate::rules::{Decided, Refusal};

/// The future of a call of tonic's generated `Rules` trait.
pub type AnswerFuture<'a, R> =
    Pin<Box<dyn Future<Output = Result<Response<R>, Status>> + Send + 'a>>;

/// The future of a call's answer, however [`rules`](crate::rules) decided it.
pub fn answer<'a, A, L>(decided: Decided<A, L>) -> AnswerFuture<'a, A>
where
    A: Send + Unpin + 'static,
    L: Future<Output = Result<A, Refusal>> + Send + 'a,
{
    match decided {
        Decided::Now(answer) => Answered::boxed(answer.map_err(error::refusal)),
        Decided::Later(later) => waiting(later),
    }
}

/// [`answer`] for `ValidateMove`, decided as the engine's verdict (the job's answer is the verdict itself): a
/// legal move's answer is always the same bytes ([`LegalMove`]), told from the verdict by a test of its
/// discriminant, where an encoded answer had first to be made and then its bytes compared; any other verdict is
/// encoded by [`super::verdict`].
pub fn validate_move_answer<'a, L>(
    decided: Decided<Result<(), IllegalMove>, L>,
) -> AnswerFuture<'a, ValidateMoveAnswer>
where
    L: Future<Output = Result<Result<(), IllegalMove>, Refusal>> + Send + 'a,
{
    match decided {
        Decided::Now(Ok(Ok(()))) => Box::pin(LegalMove),
        Decided::Now(verdict) => {
            Answered::boxed(verdict.map(super::verdict).map_err(error::refusal))
        }
        Decided::Later(later) => waiting(async move { later.await.map(super::verdict) }),
    }
}

/// The future of an answer still to come from the engine pool.
fn waiting<'a, A: Send + 'static>(
    later: impl Future<Output = Result<A, Refusal>> + Send + 'a,
) -> AnswerFuture<'a, A> {
    Box::pin(async move { later.await.map(Response::new).map_err(error::refusal) })
}

/// A call's answer, decided before its future was made: ready at the first poll.
struct Answered<R>(Option<Result<R, Status>>);

impl<R: Send + Unpin + 'static> Answered<R> {
    /// The future of `answer`.
    fn boxed<'a>(answer: Result<R, Status>) -> AnswerFuture<'a, R> {
        Box::pin(Answered(Some(answer)))
    }
}

impl<R: Unpin> Future for Answered<R> {
    type Output = Result<Response<R>, Status>;

    fn poll(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Self::Output> {
        let answer = self.0.take().expect("an answered call is polled once");
        Poll::Ready(answer.map(Response::new))
    }
}

/// `ValidateMove`'s answer to a legal move ([`super::legal_move`]): a future that holds nothing.
struct LegalMove;

impl Future for LegalMove {
    type Output = Result<Response<ValidateMoveAnswer>, Status>;

    fn poll(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Self::Output> {
        Poll::Ready(Ok(Response::new(super::legal_move())))
    }
}
