//! `Stack<T, N>`: a list of at most `N` items kept inline (no heap), `Copy` when `T` is, so a
//! whole game state clones as one `memcpy`. The lists of the game (hands, bag, deck, pending
//! tiles) have known upper bounds; pushing past `N` is a bug in the caller and panics.

#[derive(Clone, Copy)]
pub struct Stack<T: Copy + Default, const N: usize> {
    len: u16,
    items: [T; N],
}

impl<T: Copy + Default, const N: usize> Default for Stack<T, N> {
    fn default() -> Self {
        Stack { len: 0, items: [T::default(); N] }
    }
}

impl<T: Copy + Default + PartialEq, const N: usize> PartialEq for Stack<T, N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Copy + Default + Eq, const N: usize> Eq for Stack<T, N> {}

impl<T: Copy + Default + std::fmt::Debug, const N: usize> std::fmt::Debug for Stack<T, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<T: Copy + Default, const N: usize> Stack<T, N> {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn from_slice(items: &[T]) -> Self {
        let mut s = Self::default();
        for &x in items {
            s.push(x);
        }
        s
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn is_full(&self) -> bool {
        self.len as usize == N
    }

    #[inline]
    pub fn push(&mut self, x: T) {
        assert!((self.len as usize) < N, "Stack capacity {N} exceeded");
        self.items[self.len as usize] = x;
        self.len += 1;
    }

    #[inline]
    pub fn pop(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.items[self.len as usize])
    }

    #[inline]
    pub fn as_slice(&self) -> &[T] {
        &self.items[..self.len as usize]
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.items[..self.len as usize]
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Remove and return the item at `i`, shifting the rest down (Python's `del l[i]`).
    pub fn remove(&mut self, i: usize) -> T {
        let n = self.len as usize;
        assert!(i < n);
        let x = self.items[i];
        self.items.copy_within(i + 1..n, i);
        self.len -= 1;
        x
    }

    /// Insert `x` at `i` (Python's `list.insert`, with `i <= len`).
    pub fn insert(&mut self, i: usize, x: T) {
        let n = self.len as usize;
        assert!(i <= n && n < N);
        self.items.copy_within(i..n, i + 1);
        self.items[i] = x;
        self.len += 1;
    }

    pub fn extend_from_slice(&mut self, xs: &[T]) {
        for &x in xs {
            self.push(x);
        }
    }

    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.as_slice().iter()
    }

    pub fn truncate(&mut self, n: usize) {
        if n < self.len as usize {
            self.len = n as u16;
        }
    }
}

impl<T: Copy + Default + PartialEq, const N: usize> Stack<T, N> {
    /// Remove the first item equal to `x` (Python's `list.remove`); false if none.
    pub fn remove_first(&mut self, x: T) -> bool {
        match self.as_slice().iter().position(|&y| y == x) {
            Some(i) => {
                self.remove(i);
                true
            }
            None => false,
        }
    }

    pub fn contains(&self, x: T) -> bool {
        self.as_slice().contains(&x)
    }
}

impl<T: Copy + Default, const N: usize> std::ops::Index<usize> for Stack<T, N> {
    type Output = T;
    fn index(&self, i: usize) -> &T {
        &self.as_slice()[i]
    }
}

impl<T: Copy + Default, const N: usize> std::ops::IndexMut<usize> for Stack<T, N> {
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.as_mut_slice()[i]
    }
}
