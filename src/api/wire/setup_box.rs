//! The box a decoded request's state travels in, kept by its thread for the next request (issue 18).
//!
//! A state is decoded into a [`Setup`] (288 bytes, its lists in place) and boxed, so that it moves from the
//! decoder through tonic into the call's job as a pointer. Allocating and freeing that box cost about 60
//! instructions a call more than reusing one, which an Echo does not spend; a thread that decodes requests one
//! after the other needs only one such box at a time, so the box a call is done with is kept for the thread's next
//! one. At most one box is kept per thread, so nothing grows.

use std::cell::Cell;
use std::fmt;
use std::ops::{Deref, DerefMut};

use crate::engine::Setup;

thread_local! {
    /// The box the last call on this thread was done with.
    static SPARE: Cell<Option<Box<Setup>>> = const { Cell::new(None) };
}

/// A boxed [`Setup`] whose box goes back to its thread's spare when dropped.
pub struct SetupBox(
    /// Always `Some` but while dropped.
    Option<Box<Setup>>,
);

impl SetupBox {
    /// `setup`, boxed in this thread's spare box if it has one.
    pub fn new(setup: Setup) -> SetupBox {
        // `try_with`: a thread whose locals are being destroyed has no spare to lend (and must not panic).
        let boxed = match SPARE.try_with(Cell::take).ok().flatten() {
            Some(mut spare) => {
                *spare = setup;
                spare
            }
            None => Box::new(setup),
        };
        SetupBox(Some(boxed))
    }
}

impl Drop for SetupBox {
    fn drop(&mut self) {
        // A box kept already is freed in this one's place. A thread whose locals are being destroyed keeps nothing:
        // the box is freed as usual (what `try_with` leaves in `boxed` when it fails).
        let mut boxed = self.0.take();
        let _ = SPARE.try_with(|spare| spare.set(boxed.take()));
    }
}

impl Deref for SetupBox {
    type Target = Setup;

    fn deref(&self) -> &Setup {
        self.0
            .as_deref()
            .expect("a SetupBox holds its setup until dropped")
    }
}

impl DerefMut for SetupBox {
    fn deref_mut(&mut self) -> &mut Setup {
        self.0
            .as_deref_mut()
            .expect("a SetupBox holds its setup until dropped")
    }
}

impl Clone for SetupBox {
    fn clone(&self) -> Self {
        SetupBox::new((**self).clone())
    }
}

impl PartialEq for SetupBox {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for SetupBox {}

impl fmt::Debug for SetupBox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (**self).fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{AnyGame, GameKind, Options};

    fn setup_of(kind: GameKind) -> Setup {
        AnyGame::new_match(kind, &Options::default()).to_setup()
    }

    #[test]
    fn a_box_done_with_holds_the_next_setup_on_its_thread() {
        let first = SetupBox::new(setup_of(GameKind::Bosh));
        let address = &*first as *const Setup;
        drop(first);
        let second = SetupBox::new(setup_of(GameKind::BaAwa));
        assert_eq!(&*second as *const Setup, address, "the spare box is reused");
        assert_eq!(*second, setup_of(GameKind::BaAwa), "holding the new setup");
        let third = SetupBox::new(setup_of(GameKind::BaoLaKete));
        assert_ne!(&*third as *const Setup, address, "one spare, in use");
        assert_eq!(third.clone(), third);
    }
}
