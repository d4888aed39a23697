//! The states the A* of [`super::astar`] has reached: an open-addressing table of 64-bit
//! states (linear probing, a power-of-two size, at most half full), each with the fewest moves
//! it was reached in (g) and the state it was reached from. 16 bytes a state, no allocation
//! per state, nothing removed.

/// No state: a key no packed state takes (they use 34 bits).
const EMPTY: u64 = u64::MAX;

pub struct States {
    /// Per slot: the state, and its parent with g in bits 56–63.
    slots: Vec<(u64, u64)>,
    len: usize,
    shift: u32,
}

impl States {
    pub fn new() -> States {
        States::with_bits(10)
    }

    fn with_bits(bits: u32) -> States {
        States {
            slots: vec![(EMPTY, 0); 1 << bits],
            len: 0,
            shift: 64 - bits,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        let h = (key ^ key >> 29).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift;
        usize::try_from(h).unwrap_or(0)
    }

    /// The slot holding `key`, or the empty one where it would go.
    #[inline]
    fn find(&self, key: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = self.slot(key);
        loop {
            let k = self.slots[i].0;
            if k == key || k == EMPTY {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// g and the parent of `key`, if reached.
    #[inline]
    pub fn get(&self, key: u64) -> Option<(u8, u64)> {
        let (k, v) = self.slots[self.find(key)];
        (k == key).then(|| (v.to_le_bytes()[7], v & 0x00FF_FFFF_FFFF_FFFF))
    }

    /// Records `key` reached in `g` moves from `parent`, if it is new or this is fewer moves
    /// than before: whether it was recorded.
    #[inline]
    pub fn improve(&mut self, key: u64, g: u8, parent: u64) -> bool {
        let i = self.find(key);
        let (k, v) = self.slots[i];
        if k == key && v.to_le_bytes()[7] <= g {
            return false;
        }
        self.slots[i] = (key, parent | u64::from(g) << 56);
        if k == EMPTY {
            self.len += 1;
            if self.len * 2 > self.slots.len() {
                self.grow();
            }
        }
        true
    }

    /// Twice the slots, or four times while the table is small (fewer rehashes for the many
    /// short searches).
    fn grow(&mut self) {
        let bits = 64 - self.shift;
        let bits = bits + if bits < 16 { 2 } else { 1 };
        let old = std::mem::replace(self, States::with_bits(bits));
        for (k, v) in old.slots {
            if k != EMPTY {
                let i = self.find(k);
                self.slots[i] = (k, v);
                self.len += 1;
            }
        }
    }
}

impl Default for States {
    fn default() -> Self {
        States::new()
    }
}

#[cfg(test)]
mod tests {
    use super::States;

    #[test]
    fn states_keep_their_fewest_moves_and_parent_through_growth() {
        let mut s = States::new();
        for k in 0..5000u64 {
            assert!(s.improve(k * 7919, u8::try_from(k % 50).unwrap(), k));
        }
        assert_eq!(s.len(), 5000);
        assert_eq!(s.get(7919 * 3), Some((3, 3)));
        assert!(!s.improve(7919 * 3, 4, 99), "more moves: kept as it was");
        assert!(s.improve(7919 * 3, 1, 42));
        assert_eq!(s.get(7919 * 3), Some((1, 42)));
        assert_eq!(s.get(1), None);
        assert_eq!(s.len(), 5000);
    }
}
