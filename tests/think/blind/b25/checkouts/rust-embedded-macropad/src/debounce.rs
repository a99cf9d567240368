//! Per-key debouncer (integrator style).

pub struct Debouncer<const N: usize> {
    counters: [u8; N],
    state: [bool; N],
}

impl<const N: usize> Debouncer<N> {
    pub const THRESHOLD: u8 = 5;

    pub const fn new() -> Self {
        Self { counters: [0; N], state: [false; N] }
    }

    /// Feed one scan; returns the indices whose debounced state changed.
    pub fn update(&mut self, raw: [bool; N]) -> heapless::Vec<(usize, bool), N> {
        let mut changed = heapless::Vec::new();
        for i in 0..N {
            if raw[i] {
                if self.counters[i] < Self::THRESHOLD {
                    self.counters[i] += 1;
                }
            } else {
                self.counters[i] = 0;
            }
            let pressed = self.counters[i] == Self::THRESHOLD;
            if pressed != self.state[i] {
                self.state[i] = pressed;
                let _ = changed.push((i, pressed));
            }
        }
        changed
    }
}
