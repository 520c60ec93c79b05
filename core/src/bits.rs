//! The set bits of a mask, lowest first: the one loop the games' bit sets share.

/// An unsigned integer used as a set of small numbers.
pub trait Mask: Copy {
    fn is_empty(self) -> bool;
    /// The lowest set bit's position.
    fn lowest(self) -> usize;
    #[must_use]
    fn without_lowest(self) -> Self;
}

macro_rules! mask {
    ($($t:ty),*) => {$(
        impl Mask for $t {
            fn is_empty(self) -> bool {
                self == 0
            }
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            fn without_lowest(self) -> Self {
                self & (self - 1)
            }
        }
    )*};
}
mask!(u16, u64, u128);

/// The positions of the set bits of `mask`, lowest first.
pub fn ones<M: Mask>(mask: M) -> Ones<M> {
    Ones(mask)
}

/// See [`ones`].
pub struct Ones<M>(M);

impl<M: Mask> Iterator for Ones<M> {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            return None;
        }
        let bit = self.0.lowest();
        self.0 = self.0.without_lowest();
        Some(bit)
    }
}

#[cfg(test)]
mod tests {
    use super::ones;

    #[test]
    fn set_bits_lowest_first() {
        assert_eq!(ones(0b1010_0001u16).collect::<Vec<_>>(), [0, 5, 7]);
        assert_eq!(ones(1u128 << 99 | 1 << 3).collect::<Vec<_>>(), [3, 99]);
        assert_eq!(ones(0u64).count(), 0);
    }
}
