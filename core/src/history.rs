//! The record of a game's actions, shared between clones.
//!
//! Search and bots clone states all the time, and a late Dog state has more than a
//! thousand actions behind it: copying the history made a clone cost grow with the
//! game. A [`Log`] keeps its entries in frozen chunks of [`CHUNK`] that clones share
//! (`Arc`, so states stay `Send + Sync`) and a small owned tail; a clone copies the tail
//! and bumps one reference count, whatever the game's length. Two logs are equal when
//! their entries are, however they are stored.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::game::Action;

/// Entries per frozen chunk (and the most the owned tail holds).
pub const CHUNK: usize = 32;

/// The actions applied since the initial state, oldest first (see the module docs).
pub type History = Log<Action>;

/// A sequence that only grows, cheap to clone: frozen chunks shared between clones, and
/// an owned tail of fewer than [`CHUNK`] entries.
#[derive(Clone)]
pub struct Log<T: Copy + Default> {
    /// The newest frozen chunk; each links to the one before it.
    frozen: Option<Arc<Chunk<T>>>,
    tail: [T; CHUNK],
    tail_len: u8,
}

struct Chunk<T> {
    before: Option<Arc<Chunk<T>>>,
    /// Entries in the chunks before this one.
    offset: usize,
    items: [T; CHUNK],
}

impl<T: Copy + Default> Default for Log<T> {
    fn default() -> Self {
        Log {
            frozen: None,
            tail: [T::default(); CHUNK],
            tail_len: 0,
        }
    }
}

impl<T: Copy + Default> Log<T> {
    pub fn new() -> Self {
        Self::default()
    }

    fn frozen_len(&self) -> usize {
        self.frozen.as_ref().map_or(0, |c| c.offset + CHUNK)
    }

    pub fn len(&self) -> usize {
        self.frozen_len() + usize::from(self.tail_len)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn push(&mut self, item: T) {
        self.tail[usize::from(self.tail_len)] = item;
        self.tail_len += 1;
        if usize::from(self.tail_len) == CHUNK {
            self.tail_len = 0;
            self.freeze(self.tail);
        }
    }

    /// Appends a whole chunk of entries; the tail must be empty.
    fn freeze(&mut self, items: [T; CHUNK]) {
        debug_assert_eq!(self.tail_len, 0, "only a log without a tail takes a whole chunk");
        let offset = self.frozen_len();
        self.frozen = Some(Arc::new(Chunk {
            before: self.frozen.take(),
            offset,
            items,
        }));
    }

    /// The entries as slices of up to [`CHUNK`], oldest first: for loops that check
    /// every entry, faster than [`Log::iter`]'s one at a time.
    pub fn chunks(&self) -> impl Iterator<Item = &[T]> {
        self.slices().into_iter()
    }

    /// The entries as slices, oldest first.
    fn slices(&self) -> Vec<&[T]> {
        let mut slices = Vec::with_capacity(self.frozen_len() / CHUNK + 1);
        let mut chunk = self.frozen.as_deref();
        while let Some(c) = chunk {
            slices.push(&c.items[..]);
            chunk = c.before.as_deref();
        }
        slices.reverse();
        slices.push(&self.tail[..usize::from(self.tail_len)]);
        slices
    }

    /// The entries, oldest first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = T> + '_ {
        self.slices().into_iter().flatten().copied()
    }

    pub fn to_vec(&self) -> Vec<T> {
        let mut out = Vec::with_capacity(self.len());
        for slice in self.slices() {
            out.extend_from_slice(slice);
        }
        out
    }

    /// The last entry.
    pub fn last(&self) -> Option<T> {
        match self.tail_len {
            0 => self.frozen.as_ref().map(|c| c.items[CHUNK - 1]),
            n => Some(self.tail[usize::from(n) - 1]),
        }
    }
}

impl<T: Copy + Default> Drop for Log<T> {
    /// Frees a long chain of chunks one by one rather than by recursion.
    fn drop(&mut self) {
        let mut next = self.frozen.take();
        while let Some(chunk) = next {
            next = match Arc::try_unwrap(chunk) {
                Ok(mut chunk) => chunk.before.take(),
                Err(_) => None,
            };
        }
    }
}

impl<T: Copy + Default> FromIterator<T> for Log<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut log = Log::new();
        for item in iter {
            log.push(item);
        }
        log
    }
}

impl<T: Copy + Default> From<Vec<T>> for Log<T> {
    fn from(items: Vec<T>) -> Self {
        items.into_iter().collect()
    }
}

impl<T: Copy + Default + PartialEq> PartialEq for Log<T> {
    fn eq(&self, other: &Self) -> bool {
        if self.len() != other.len() {
            return false;
        }
        let shared = match (&self.frozen, &other.frozen) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        if shared {
            return self.tail[..usize::from(self.tail_len)] == other.tail[..usize::from(other.tail_len)];
        }
        self.iter().eq(other.iter())
    }
}

impl<T: Copy + Default + Eq> Eq for Log<T> {}

impl<T: Copy + Default + PartialEq> PartialEq<[T]> for Log<T> {
    fn eq(&self, other: &[T]) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter().copied())
    }
}

impl<T: Copy + Default + fmt::Debug> fmt::Debug for Log<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Entries kept in a chunk filled in a local array and frozen whole: pushing entry by
/// entry reloads the tail's length from memory each time (for a long history that was a
/// third of reading a Dog snapshot).
struct Builder<T: Copy + Default> {
    log: Log<T>,
    chunk: [T; CHUNK],
    filled: usize,
}

impl<T: Copy + Default> Builder<T> {
    fn new() -> Self {
        Builder {
            log: Log::new(),
            chunk: [T::default(); CHUNK],
            filled: 0,
        }
    }
    fn push(&mut self, item: T) {
        self.chunk[self.filled] = item;
        self.filled += 1;
        if self.filled == CHUNK {
            self.log.freeze(self.chunk);
            self.filled = 0;
        }
    }
    fn finish(mut self) -> Log<T> {
        for &item in &self.chunk[..self.filled] {
            self.log.push(item);
        }
        self.log
    }
}

/// In JSON a list of numbers; in binary formats (snapshots) one byte string of LEB128
/// varints, which is written and read in a tight loop rather than through serde per
/// entry (the history is most of a long snapshot).
impl<T: Copy + Default + Serialize + Into<u64>> Serialize for Log<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq as _;
        if !s.is_human_readable() {
            let mut packed = Vec::with_capacity(2 * self.len());
            // A chunk's varints go to a local array first (at most 10 bytes an entry),
            // then to the output at once: no capacity check per byte.
            let mut buf = [0u8; 10 * CHUNK];
            for slice in self.slices() {
                let mut at = 0;
                for &item in slice {
                    let mut n: u64 = item.into();
                    while n >= 0x80 {
                        buf[at] = (n as u8) | 0x80;
                        n >>= 7;
                        at += 1;
                    }
                    buf[at] = n as u8;
                    at += 1;
                }
                packed.extend_from_slice(&buf[..at]);
            }
            return s.serialize_bytes(&packed);
        }
        let mut seq = s.serialize_seq(Some(self.len()))?;
        for slice in self.slices() {
            for item in slice {
                seq.serialize_element(item)?;
            }
        }
        seq.end()
    }
}

impl<'de, T: Copy + Default + Deserialize<'de> + TryFrom<u64>> Deserialize<'de> for Log<T> {
    /// Straight into the chunks, without a vector in between.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Entries<T>(std::marker::PhantomData<T>);
        impl<'de, T: Copy + Default + Deserialize<'de> + TryFrom<u64>> serde::de::Visitor<'de> for Entries<T> {
            type Value = Log<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Log<T>, A::Error> {
                let mut log = Builder::new();
                while let Some(item) = seq.next_element()? {
                    log.push(item);
                }
                Ok(log.finish())
            }
            fn visit_bytes<E: serde::de::Error>(self, packed: &[u8]) -> Result<Log<T>, E> {
                let mut log = Builder::new();
                let (mut n, mut shift) = (0u64, 0u32);
                for &byte in packed {
                    if shift == 0 && byte < 0x80 {
                        // One byte, one entry: the common case (Dog's seats, small ids).
                        let item = T::try_from(u64::from(byte)).map_err(|_| {
                            E::invalid_value(
                                serde::de::Unexpected::Unsigned(u64::from(byte)),
                                &"an entry in range",
                            )
                        })?;
                        log.push(item);
                        continue;
                    }
                    if shift > 63 || (shift == 63 && byte > 1) {
                        return Err(crate::error::custom(crate::msg!(
                            "an entry's varint does not fit 64 bits",
                            "der Varint eines Eintrags passt nicht in 64 Bit"
                        )));
                    }
                    n |= u64::from(byte & 0x7f) << shift;
                    if byte & 0x80 == 0 {
                        let item = T::try_from(n).map_err(|_| {
                            E::invalid_value(serde::de::Unexpected::Unsigned(n), &"an entry in range")
                        })?;
                        log.push(item);
                        (n, shift) = (0, 0);
                    } else {
                        shift += 7;
                    }
                }
                if shift != 0 {
                    return Err(crate::error::custom(crate::msg!(
                        "the last entry's varint is cut short",
                        "der Varint des letzten Eintrags ist abgeschnitten"
                    )));
                }
                Ok(log.finish())
            }
        }
        if d.is_human_readable() {
            d.deserialize_seq(Entries(std::marker::PhantomData))
        } else {
            d.deserialize_bytes(Entries(std::marker::PhantomData))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_holds_what_was_pushed_and_clones_share_it() {
        for n in [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 5 * CHUNK + 7] {
            let items: Vec<u32> = (0..n as u32).collect();
            let mut log: Log<u32> = Log::new();
            for &i in &items {
                log.push(i);
            }
            assert_eq!(log.len(), n);
            assert_eq!(log.to_vec(), items);
            assert_eq!(
                log.iter().rev().collect::<Vec<_>>(),
                items.iter().rev().copied().collect::<Vec<_>>()
            );
            assert_eq!(log.last(), items.last().copied());
            assert_eq!(Log::from(items.clone()), log);
            assert_eq!(log, items[..]);
            let json = serde_json::to_string(&log).unwrap();
            assert_eq!(json, serde_json::to_string(&items).unwrap());
            assert_eq!(serde_json::from_str::<Log<u32>>(&json).unwrap(), log);
            // Binary formats get the entries packed as varints, up to u32::MAX.
            let mut wide = log.clone();
            wide.push(u32::MAX);
            let packed = postcard::to_allocvec(&wide).unwrap();
            assert_eq!(postcard::from_bytes::<Log<u32>>(&packed).unwrap(), wide);
            assert!(
                postcard::from_bytes::<Log<u8>>(&packed).is_err(),
                "an entry out of range"
            );
            let cut = [
                &[2u8, 0x80, 0x80][..],
                &[1, 0xff],
                &[11, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f],
            ];
            for bad in cut {
                assert!(postcard::from_bytes::<Log<u32>>(bad).is_err(), "{bad:?}");
            }
            // A clone goes its own way; the shared part stays as it was.
            let mut other = log.clone();
            other.push(99);
            assert_ne!(other, log);
            assert_eq!(log.to_vec(), items);
            let mut again = log.clone();
            again.push(99);
            assert_eq!(again, other);
            let mut different = log.clone();
            different.push(98);
            assert_ne!(different, other);
        }
    }

    #[test]
    fn a_long_log_drops_without_deep_recursion() {
        let log: Log<u8> = std::iter::repeat_n(1, 10_000_000).collect();
        assert_eq!(log.len(), 10_000_000);
        drop(log);
    }
}
