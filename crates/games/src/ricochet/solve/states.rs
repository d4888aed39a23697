//! The states the A* of [`super::astar`] has reached: an open-addressing table (linear probing,
//! a power-of-two size, at most half full) of 8-byte slots, each holding a state (34 bits), the
//! fewest moves it was reached in (g), and how it was reached (`Via`: the cells the moving robot
//! left and entered, and the active robot's axis before), from which the state before is
//! rebuilt. No allocation per state, nothing removed.

/// No state: the top bits of a slot are always clear.
const EMPTY: u64 = u64::MAX;

/// The bits of a slot that hold the state.
const KEY: u64 = (1 << 34) - 1;

/// How a state was reached: the cell the moving robot left (bits 0–7), the cell it entered
/// (bits 8–15), and the active robot's axis bits before the move (bits 16–17).
pub type Via = u32;

pub struct States {
    /// Per slot: the state (bits 0–33), its `Via` (bits 34–51) and g (bits 52–59).
    slots: Vec<u64>,
    len: usize,
    shift: u32,
}

impl States {
    pub fn new() -> States {
        States::with_bits(11)
    }

    fn with_bits(bits: u32) -> States {
        States {
            slots: vec![EMPTY; 1 << bits],
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
            let s = self.slots[i];
            if s == EMPTY || s & KEY == key {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// g and the way `key` was reached, if reached.
    #[inline]
    pub fn get(&self, key: u64) -> Option<(u8, Via)> {
        let s = self.slots[self.find(key)];
        (s != EMPTY).then(|| (g_of(s), via_of(s)))
    }

    /// Records `key` reached in `g` moves by `via`, if it is new or this is fewer moves than
    /// before: whether it was recorded.
    #[inline]
    pub fn improve(&mut self, key: u64, g: u8, via: Via) -> bool {
        let i = self.find(key);
        let s = self.slots[i];
        if s != EMPTY && g_of(s) <= g {
            return false;
        }
        self.slots[i] = key | u64::from(via & 0x3_FFFF) << 34 | u64::from(g) << 52;
        if s == EMPTY {
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
        for s in old.slots {
            if s != EMPTY {
                let i = self.find(s & KEY);
                self.slots[i] = s;
                self.len += 1;
            }
        }
    }
}

fn g_of(slot: u64) -> u8 {
    u8::try_from(slot >> 52 & 0xFF).unwrap_or(0)
}

fn via_of(slot: u64) -> Via {
    u32::try_from(slot >> 34 & 0x3_FFFF).unwrap_or(0)
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
    fn states_keep_their_fewest_moves_and_way_through_growth() {
        let mut s = States::new();
        for k in 0..5000u64 {
            let via = u32::try_from(k * 37 % 0x3_FFFF).unwrap();
            assert!(s.improve(k * 7919, u8::try_from(k % 250).unwrap(), via));
        }
        assert_eq!(s.len(), 5000);
        assert_eq!(s.get(7919 * 3), Some((3, 3 * 37)));
        assert_eq!(s.get(7919 * 4999), Some((249, 4999 * 37)));
        assert!(!s.improve(7919 * 3, 4, 99), "more moves: kept as it was");
        assert!(s.improve(7919 * 3, 1, 0x3_FFFF));
        assert_eq!(s.get(7919 * 3), Some((1, 0x3_FFFF)));
        assert_eq!(s.get(1), None);
        assert_eq!(s.len(), 5000);
    }
}
