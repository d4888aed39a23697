//! A bucket queue: items by a small integer cost, cheapest first, the last pushed of a cost
//! first. Costs pushed are never below the cost last popped (Dijkstra's costs, and A*'s
//! f = g + h under a consistent bound, only grow).

/// The room a new bucket starts with: a short search never grows one.
const BUCKET: usize = 128;

pub struct BucketQueue<T> {
    buckets: Vec<Vec<T>>,
    /// The cost being popped: every cheaper bucket is empty.
    cursor: u32,
}

impl<T> Default for BucketQueue<T> {
    fn default() -> Self {
        BucketQueue {
            buckets: Vec::new(),
            cursor: 0,
        }
    }
}

impl<T> BucketQueue<T> {
    /// Inline in the search's loop (a push a successor): the buckets grow out of line.
    #[inline]
    pub fn push(&mut self, cost: u32, item: T) {
        debug_assert!(cost >= self.cursor, "a cost below the one being popped");
        let slot = usize::try_from(cost).expect("a cost fits a usize");
        if self.buckets.len() <= slot {
            self.grow(slot);
        }
        self.buckets[slot].push(item);
    }

    /// Buckets up to `slot`.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, slot: usize) {
        self.buckets
            .resize_with(slot + 1, || Vec::with_capacity(BUCKET));
    }

    /// The cheapest item and its cost.
    #[inline]
    pub fn pop(&mut self) -> Option<(u32, T)> {
        loop {
            let slot = usize::try_from(self.cursor).expect("a cost fits a usize");
            let bucket = self.buckets.get_mut(slot)?;
            if let Some(item) = bucket.pop() {
                return Some((self.cursor, item));
            }
            self.cursor += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cheapest_first_last_pushed_first() {
        let mut q = BucketQueue::default();
        q.push(2, 'a');
        q.push(0, 'b');
        q.push(2, 'c');
        assert_eq!(q.pop(), Some((0, 'b')));
        q.push(1, 'd');
        assert_eq!(q.pop(), Some((1, 'd')));
        assert_eq!(q.pop(), Some((2, 'c')));
        assert_eq!(q.pop(), Some((2, 'a')));
        assert_eq!(q.pop(), None);
    }
}
