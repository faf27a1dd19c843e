//! [`Repeated`]: a list field of a client's state ([`Setup`](super::Setup)), a protobuf `repeated` field in the
//! engine's hands. It holds up to `N` values in place, `N` being the longest that list is in any game (32 pits,
//! three seats), so that decoding, validating and answering a state allocates nothing (issue 18); a longer
//! list, which only a wrong state has, moves to the heap and is reported as too long like any other.

use std::fmt;
use std::ops::{Deref, DerefMut};

use smallvec::SmallVec;

/// A list of a state's field: in place up to `N` values, on the heap past that. Reads as a slice.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Repeated<T, const N: usize>(SmallVec<[T; N]>);

impl<T, const N: usize> Repeated<T, N> {
    /// An empty list.
    pub const fn new() -> Self {
        Repeated(SmallVec::new_const())
    }

    /// Appends a value.
    pub fn push(&mut self, value: T) {
        self.0.push(value);
    }

    /// A list of `values`, copied in place when they fit (a game's lists, as its state is answered for every
    /// call: one copy, where collecting them would check for room at each value).
    #[inline]
    pub fn from_slice(values: &[T]) -> Self
    where
        T: Copy + Default,
    {
        if values.len() <= N {
            let mut place = [T::default(); N];
            place[..values.len()].copy_from_slice(values);
            Repeated(SmallVec::from_buf_and_len(place, values.len()))
        } else {
            Repeated(SmallVec::from_slice(values))
        }
    }

    /// A list of one value for each byte of `bytes`, mapped by `value`: a game's counts, which it keeps in
    /// bytes, as its state gives them for every call. Filled in place in a single pass when they fit, with no
    /// check per value.
    #[inline]
    pub fn from_bytes(bytes: &[u8], value: impl Fn(u8) -> T) -> Self
    where
        T: Copy + Default,
    {
        if bytes.len() <= N {
            Repeated::in_place(bytes, value)
        } else {
            Repeated(bytes.iter().map(|&byte| value(byte)).collect())
        }
    }

    /// Appends one value for each byte of `bytes`, mapped by `value` (a packed list of one-byte values, as
    /// decoding reads it). An empty list that will hold them all is filled in a single pass, with no check per
    /// value (a state's lists are decoded this way for every call); otherwise the values are pushed, moving to
    /// the heap past `N` as ever.
    #[inline]
    pub fn extend_from_bytes(&mut self, bytes: &[u8], value: impl Fn(u8) -> T)
    where
        T: Copy + Default,
    {
        if self.0.is_empty() && bytes.len() <= N {
            *self = Repeated::in_place(bytes, value);
        } else {
            self.push_bytes(bytes, value);
        }
    }

    /// The values of `bytes`, mapped by `value`, filled into the in-place buffer in a single pass with no check
    /// per value: the fast path of [`Repeated::from_bytes`] and [`Repeated::extend_from_bytes`], for bytes that
    /// fit (at most `N`).
    #[inline]
    fn in_place(bytes: &[u8], value: impl Fn(u8) -> T) -> Self
    where
        T: Copy + Default,
    {
        let mut place = [T::default(); N];
        for (slot, &byte) in place.iter_mut().zip(bytes) {
            *slot = value(byte);
        }
        Repeated(SmallVec::from_buf_and_len(place, bytes.len()))
    }

    /// The rest of [`Repeated::extend_from_bytes`]: a list already begun, or one too long, which only a wrong
    /// state has. Kept out of line: when the compiler inlined `SmallVec`'s growing into decoding, every packed
    /// list a call decodes cost more (some twenty instructions a ValidateMove call).
    #[cold]
    #[inline(never)]
    fn push_bytes(&mut self, bytes: &[u8], value: impl Fn(u8) -> T) {
        self.0.extend(bytes.iter().map(|&byte| value(byte)));
    }

    /// The values as a `Vec` (for protobuf's messages).
    pub fn into_vec(self) -> Vec<T> {
        self.0.into_vec()
    }
}

impl<T, const N: usize> Deref for Repeated<T, N> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        &self.0
    }
}

impl<T, const N: usize> DerefMut for Repeated<T, N> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.0
    }
}

impl<T: fmt::Debug, const N: usize> fmt::Debug for Repeated<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Copy + Default, const N: usize> From<Vec<T>> for Repeated<T, N> {
    /// Moves the values in place when they fit (whatever the `Vec`'s spare capacity), else keeps the `Vec`'s heap.
    fn from(values: Vec<T>) -> Self {
        if values.len() <= N {
            Repeated::from_slice(&values)
        } else {
            Repeated(SmallVec::from_vec(values))
        }
    }
}

impl<T: Copy + Default, const N: usize, const M: usize> From<[T; M]> for Repeated<T, N> {
    fn from(values: [T; M]) -> Self {
        Repeated::from_slice(&values)
    }
}

impl<T: Copy + Default, const N: usize> From<&[T]> for Repeated<T, N> {
    fn from(values: &[T]) -> Self {
        Repeated::from_slice(values)
    }
}

impl<T: Copy + Default, const N: usize> FromIterator<T> for Repeated<T, N> {
    /// Fills the place for `N` values first, then moves to the heap only if there are more: a state's lists are
    /// built this way for every call, and `SmallVec`'s own `extend` checks its capacity at each value.
    fn from_iter<I: IntoIterator<Item = T>>(values: I) -> Self {
        let mut values = values.into_iter();
        let mut place = [T::default(); N];
        for (len, slot) in place.iter_mut().enumerate() {
            match values.next() {
                Some(value) => *slot = value,
                None => return Repeated(SmallVec::from_buf_and_len(place, len)),
            }
        }
        let mut all = SmallVec::from_buf(place);
        all.extend(values);
        Repeated(all)
    }
}

impl<T, const N: usize> Extend<T> for Repeated<T, N> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, values: I) {
        self.0.extend(values);
    }
}

impl<T, const N: usize> IntoIterator for Repeated<T, N> {
    type Item = T;
    type IntoIter = smallvec::IntoIter<[T; N]>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a, T, const N: usize> IntoIterator for &'a Repeated<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<T: PartialEq, const N: usize> PartialEq<[T]> for Repeated<T, N> {
    fn eq(&self, other: &[T]) -> bool {
        self[..] == *other
    }
}

impl<T: PartialEq, const N: usize, const M: usize> PartialEq<[T; M]> for Repeated<T, N> {
    fn eq(&self, other: &[T; M]) -> bool {
        self[..] == other[..]
    }
}

impl<T: PartialEq, const N: usize> PartialEq<Vec<T>> for Repeated<T, N> {
    fn eq(&self, other: &Vec<T>) -> bool {
        self[..] == other[..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_that_fits_stays_in_place_and_a_longer_one_is_kept_whole() {
        let fits: Repeated<u32, 3> = vec![1, 2].into();
        assert!(!fits.0.spilled());
        assert_eq!(fits, [1, 2]);
        let longer: Repeated<u32, 3> = vec![1, 2, 3, 4, 5].into();
        assert!(longer.0.spilled());
        assert_eq!(longer, vec![1, 2, 3, 4, 5]);
        assert_eq!(longer.len(), 5);
        assert_eq!(format!("{longer:?}"), "[1, 2, 3, 4, 5]");
        let exactly: Repeated<u32, 3> = (1..=3).collect();
        assert!(!exactly.0.spilled());
        assert_eq!(exactly, [1, 2, 3]);
        let one_more: Repeated<u32, 3> = (1..=4).collect();
        assert_eq!(one_more, [1, 2, 3, 4]);
        let none: Repeated<u32, 3> = std::iter::empty().collect();
        assert!(none.is_empty());
        let mut pushed = Repeated::<u32, 2>::new();
        for v in 0..4 {
            pushed.push(v);
        }
        assert_eq!(pushed.into_vec(), vec![0, 1, 2, 3]);
    }

    #[test]
    fn slices_and_bytes_make_a_list_in_place_when_they_fit_and_on_the_heap_past_that() {
        let fits = Repeated::<u32, 3>::from_slice(&[5, 6]);
        assert!(!fits.0.spilled());
        assert_eq!(fits, [5, 6]);
        let longer = Repeated::<u32, 2>::from_slice(&[5, 6, 7]);
        assert!(longer.0.spilled());
        assert_eq!(longer, [5, 6, 7]);
        assert!(Repeated::<u32, 2>::from_slice(&[]).is_empty());
        let widened = Repeated::<u32, 4>::from_bytes(&[0, 4, 200], u32::from);
        assert!(!widened.0.spilled());
        assert_eq!(widened, [0, 4, 200]);
        let longer = Repeated::<bool, 2>::from_bytes(&[1, 0, 1], |b| b == 1);
        assert!(longer.0.spilled());
        assert_eq!(longer, [true, false, true]);
        let array: Repeated<bool, 3> = [true, false].into();
        assert_eq!(array, [true, false]);
    }

    #[test]
    fn bytes_extend_a_list_in_place_while_they_fit_and_on_the_heap_past_that() {
        let mut fits = Repeated::<u32, 3>::new();
        fits.extend_from_bytes(&[7, 8], u32::from);
        assert!(!fits.0.spilled());
        assert_eq!(fits, [7, 8]);
        fits.extend_from_bytes(&[9], u32::from);
        assert!(!fits.0.spilled());
        assert_eq!(fits, [7, 8, 9]);
        fits.extend_from_bytes(&[10], u32::from);
        assert!(fits.0.spilled());
        assert_eq!(fits, [7, 8, 9, 10]);
        let mut longer = Repeated::<bool, 2>::new();
        longer.extend_from_bytes(&[1, 0, 1], |b| b == 1);
        assert!(longer.0.spilled());
        assert_eq!(longer, [true, false, true]);
        let mut none = Repeated::<u32, 2>::new();
        none.extend_from_bytes(&[], u32::from);
        assert!(none.is_empty() && !none.0.spilled());
        let mut exactly = Repeated::<u32, 2>::new();
        exactly.extend_from_bytes(&[0, 127], u32::from);
        assert!(!exactly.0.spilled());
        assert_eq!(exactly, [0, 127]);
    }
}
