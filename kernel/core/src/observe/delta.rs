//! The observation kept up to date in place: a batch of environments writes each game's
//! observation into the same buffer step after step, and most of it (the `cities` slice,
//! six sevenths of the floats with four players) does not change from one learner decision
//! to the next. [`Observer::update`] rewrites the head and the tail (the small slices), only
//! the cities that changed since the buffer was last written, and only the `decision`
//! entries that were set, giving exactly the floats of a full [`Observer::write`] followed by
//! the counts of the integers chosen so far.

use super::{Observer, SLOT_FEATURES};
use crate::city::City;
use crate::codec::Slots;
use crate::game::Game;

/// What one observation buffer holds (the observation of which seat, which cities, which
/// `decision` entries), so that [`Observer::update`] rewrites only what changed. A fresh one
/// (or one after [`Written::forget`]) makes the next update a full write.
#[derive(Clone, Debug, Default)]
pub struct Written {
    /// the buffer holds an observation written by `update` for the seat `seat`
    valid: bool,
    seat: usize,
    /// per seat (absolute), its city as last written
    cities: Vec<CityWritten>,
    /// the `decision` entries counted (one per integer chosen, repeats included)
    decision: Vec<u16>,
}

impl Written {
    /// Forget what the buffer holds (another buffer, or one written by someone else): the
    /// next update writes every float.
    pub fn forget(&mut self) {
        self.valid = false;
    }

    /// Whether the buffer holds an observation written by `update`.
    pub fn is_valid(&self) -> bool {
        self.valid
    }
}

/// One seat's city as the buffer holds it.
#[derive(Clone, Debug, Default)]
struct CityWritten {
    /// the [`City::stamp`] of the layout written (0: none)
    stamp: u64,
    /// the cell slots written (the floats of the block past them are zero)
    slots: usize,
}

impl CityWritten {
    /// Whether `city` is the layout written.
    fn is(&self, city: &City) -> bool {
        self.stamp == city.stamp()
    }
}

impl Observer {
    /// Bring `out[..size]` to the observation of `seat` in `g` with the integers `prefix`
    /// counted in the `decision` slice (exactly [`Observer::write`] then a `+1` per integer),
    /// where `out` holds what `written` says: only the changed parts are rewritten.
    pub fn update(
        &self,
        g: &Game,
        seat: usize,
        prefix: &[u16],
        out: &mut [f32],
        slots: &mut Slots,
        written: &mut Written,
    ) {
        let out = &mut out[..self.size];
        let n = self.n;
        let full = !written.valid || written.seat != seat || written.cities.len() != n;
        if full {
            out.fill(0.0);
            written.cities.resize_with(n, CityWritten::default);
            written.decision.clear();
        } else {
            out[..self.head_end()].fill(0.0);
            out[self.tail()].fill(0.0);
        }
        self.write_head(g, seat, out);
        for p in 0..n {
            let city = &g.players[p].city;
            let saved = &mut written.cities[p];
            if !full {
                if saved.is(city) {
                    continue;
                }
                let at = self.city_block(seat, p).start;
                out[at..at + saved.slots * SLOT_FEATURES].fill(0.0);
            }
            saved.slots = self.write_city(g, seat, p, out, slots);
            saved.stamp = city.stamp();
        }
        self.write_tail(g, seat, out, slots);
        self.count_prefix(prefix, out, written);
        written.seat = seat;
        written.valid = true;
    }

    /// [`Observer::update`] where the game has not changed since the buffer was last updated
    /// for `seat` (only the integers chosen may have): the `decision` slice alone is rewritten.
    /// False (nothing written) when the buffer does not hold an observation of `seat`.
    pub fn update_prefix(&self, seat: usize, prefix: &[u16], out: &mut [f32], written: &mut Written) -> bool {
        if !written.valid || written.seat != seat {
            return false;
        }
        self.count_prefix(prefix, &mut out[..self.size], written);
        true
    }

    /// The `decision` slice: the entries counted before cleared, `prefix` counted.
    fn count_prefix(&self, prefix: &[u16], out: &mut [f32], written: &mut Written) {
        let d = self.decision_start();
        for &i in written.decision.iter() {
            out[d + i as usize] = 0.0;
        }
        written.decision.clear();
        for &i in prefix {
            out[d + i as usize] += 1.0;
        }
        written.decision.extend_from_slice(prefix);
    }
}
