//! Move generation, `play` and `play_and_list` never touch the heap (issue 6): a counting global allocator
//! watches every implemented game over many mid-game positions. (An allocation count, not a timing.)

use mancala::engine::{AnyGame, GameKind, MoveList, NoTrace, Options, Rng, Status, Until};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator; only a counter is added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn legal_moves_play_and_play_and_list_do_not_allocate() {
    for kind in GameKind::ALL {
        let mut rng = Rng::new(11);
        for _ in 0..200 {
            let mut game = AnyGame::new_match(kind, &Options::default());
            let plies = rng.below(60) as u32;
            game.random_playout(&mut rng, Until::MatchEnd, plies);
            if game.status() == Status::MatchOver {
                continue;
            }
            ALLOCATIONS.store(0, Ordering::Relaxed);
            COUNTING.store(true, Ordering::Relaxed);
            let moves = game.legal_moves();
            let mut listed = MoveList::new();
            for mv in &moves {
                let mut next = game.clone();
                let _ = next.play(mv, &mut NoTrace);
                let mut next = game.clone();
                let _ = next.play_and_list(mv, &mut NoTrace, &mut listed);
            }
            COUNTING.store(false, Ordering::Relaxed);
            assert_eq!(
                ALLOCATIONS.load(Ordering::Relaxed),
                0,
                "{kind:?} allocated in {game:?}"
            );
        }
    }
}
