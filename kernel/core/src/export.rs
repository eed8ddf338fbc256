//! The state as JSON, in the shape of the `state` object of the Python engine's save
//! (`Game.to_json()`), players' names left empty for the caller to fill in; and the random
//! generator's state as `random.Random.getstate()` holds it.

use crate::city::{xy, Cell, MAX_GATES};
use crate::data::{card_code, is_money, value, BONUS_CARDS, TYPES, TYPE_NAMES};
use crate::game::{Context, Game, BONUS, BUILDING_HUTS, GATES, MAX_PLAYERS, VIZIER};
use crate::huts::write_tile;
use crate::stack::Stack;
use crate::tally::{Tally, KINDS, KIND_NAMES};
use std::fmt::Write;

fn list<T>(out: &mut String, items: impl IntoIterator<Item = T>, mut each: impl FnMut(&mut String, T)) {
    out.push('[');
    for (k, x) in items.into_iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        each(out, x);
    }
    out.push(']');
}

fn cards(out: &mut String, cs: &[u8]) {
    list(out, cs.iter(), |o, &c| {
        let _ = write!(o, "\"{}\"", card_code(c));
    });
}

fn ints<T: std::fmt::Display + Copy>(out: &mut String, xs: &[T]) {
    list(out, xs.iter(), |o, &x| {
        let _ = write!(o, "{x}");
    });
}

/// A bit set over the bonus cards as their sorted list of buildings.
fn bonus_list(out: &mut String, bits: u16) {
    list(out, BONUS_CARDS.iter().enumerate().filter(|(k, _)| bits >> k & 1 == 1), |o, (_, b)| {
        let _ = write!(o, "{b}");
    });
}

fn per_type<T: std::fmt::Display + Copy>(out: &mut String, xs: &[T]) {
    out.push('{');
    for (t, x) in xs.iter().enumerate() {
        if t > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "\"{}\": {}", TYPE_NAMES[t], x);
    }
    out.push('}');
}

/// The state object of a save (names empty; the huts named by their shipped ids).
pub fn state_json(g: &Game) -> String {
    state_json_with(g, &[])
}

fn tiles(out: &mut String, ts: &[u8], names: &[String]) {
    list(out, ts.iter(), |o, &t| write_tile(o, t, names));
}

/// The state object of a save (names empty), the `k`-th hut named `hut_names[k]` (R-HUT-1: the
/// layout's ids; the shipped ids `H1` … `H24` when `hut_names` is empty).
pub fn state_json_with(g: &Game, hut_names: &[String]) -> String {
    let mut o = String::with_capacity(4096);
    let n = g.n as usize;
    o.push_str("{\"players\": ");
    list(&mut o, 0..n, |o, p| {
        let pl = &g.players[p];
        o.push_str("{\"name\": \"\", \"hand\": ");
        cards(o, pl.hand.as_slice());
        o.push_str(", \"city\": ");
        list(o, pl.city.iter(), |o, (c, t)| {
            let (x, y) = xy(c);
            let _ = write!(o, "[{x}, {y}, ");
            write_tile(o, t, hut_names);
            o.push(']');
        });
        // the sides declared open (city gates, R-GATE-6) follow the tiles, sorted
        let mut open: Stack<(Cell, u8), MAX_GATES> = Stack::from_slice(pl.city.gates());
        open.as_mut_slice().sort_unstable();
        if !open.is_empty() {
            o.pop();
            for &(c, side) in open.iter() {
                let (x, y) = xy(c);
                let _ = write!(o, ", [{x}, {y}, {side}, \"open\"]");
            }
            o.push(']');
        }
        o.push_str(", \"reserve\": ");
        tiles(o, pl.reserve.as_slice(), hut_names);
        let _ = write!(o, ", \"score\": {}}}", pl.score);
    });
    o.push_str(", \"bag\": ");
    ints(&mut o, g.bag.as_slice());
    o.push_str(", \"market\": ");
    list(&mut o, g.market.iter(), |o, &t| {
        if t == 0 {
            o.push_str("null");
        } else {
            let _ = write!(o, "{t}");
        }
    });
    o.push_str(", \"deck\": ");
    cards(&mut o, g.deck.as_slice());
    o.push_str(", \"discard\": ");
    cards(&mut o, g.discard.as_slice());
    o.push_str(", \"display\": ");
    cards(&mut o, g.display.as_slice());
    let decider = match g.decider {
        Some(d) => d.to_string(),
        None => "null".into(),
    };
    let _ = write!(
        o,
        ", \"start_player\": {}, \"turn_player\": {}, \"decider\": {}, \"phase\": \"{}\", \"turn\": {}",
        g.start_player,
        g.turn_player,
        decider,
        g.phase.name(),
        g.turn
    );
    o.push_str(", \"pending\": ");
    list(&mut o, g.pending.iter(), |o, &(t, ok)| {
        o.push_str("{\"tile\": ");
        write_tile(o, t, hut_names);
        let _ = write!(o, ", \"dirk_ok\": {ok}}}");
    });
    let ctx = match g.place_context {
        Context::None => "",
        Context::Turn => "turn",
        Context::Distribution => "distribution",
        Context::Vizier => "vizier",
    };
    let _ = write!(o, ", \"place_context\": \"{ctx}\", \"pending_scorings\": ");
    ints(&mut o, g.pending_scorings.as_slice());
    o.push_str(", \"scoring_cards\": ");
    cards(&mut o, g.scoring_cards.as_slice());
    o.push_str(", \"scorings\": ");
    scorings(&mut o, g);
    o.push_str(", \"distribution\": ");
    list(&mut o, g.distribution.iter(), |o, (s, tiles)| {
        let _ = write!(o, "[{s}, ");
        ints(o, tiles.as_slice());
        o.push(']');
    });
    o.push_str(", \"out_of_play\": ");
    ints(&mut o, g.out_of_play.as_slice());
    o.push_str(", \"modules\": {");
    let mut parts = 0;
    if g.mods & GATES != 0 {
        // the module's state is made while the money piles are dealt, before any setup hook
        let gs = &g.gates;
        let _ = write!(o, "\"city_gates\": {{\"space\": {}, \"gates\": ", gs.space);
        list(&mut o, 0..n, |o, p| {
            list(o, g.players[p].city.gates().iter(), |o, &(c, side)| {
                let (x, y) = xy(c);
                let _ = write!(o, "[{x}, {y}, {side}]");
            })
        });
        o.push_str(", \"played\": ");
        ints(&mut o, gs.played.as_slice());
        o.push_str(", \"unused\": ");
        ints(&mut o, gs.unused.as_slice());
        let _ = write!(o, ", \"window\": \"{}\", \"then\": \"{}\"}}", gs.window.name(), gs.then.name());
        parts += 1;
    }
    if g.mods & BONUS != 0 {
        if parts > 0 {
            o.push_str(", ");
        }
        // the module's state is set up first (its setup hook runs before the vizier's)
        let b = &g.bonus;
        let seats = |o: &mut String, bits: &[u16], recorded: bool| {
            if recorded {
                list(o, bits[..n].iter(), |o, &x| bonus_list(o, x));
            } else {
                o.push_str("[]");
            }
        };
        o.push_str("\"bonus_cards\": {\"hands\": ");
        seats(&mut o, &b.hands, true);
        o.push_str(", \"revealed\": ");
        seats(&mut o, &b.revealed, true);
        o.push_str(", \"out_of_play\": ");
        bonus_list(&mut o, b.out_of_play);
        o.push_str(", \"owned\": ");
        seats(&mut o, &b.owned, b.has_owned);
        o.push_str(", \"not_held\": ");
        seats(&mut o, &b.not_held, b.has_not_held);
        o.push('}');
        parts += 1;
    }
    if g.mods & BUILDING_HUTS != 0 {
        // set up after the bonus cards and before the vizier, as the module hooks run
        if parts > 0 {
            o.push_str(", ");
        }
        crate::huts::state_json(&mut o, g, hut_names);
        parts += 1;
    }
    if g.mods & VIZIER != 0 {
        if parts > 0 {
            o.push_str(", ");
        }
        let v = &g.vizier;
        o.push_str("\"vizier\": {\"active\": ");
        list(&mut o, v.active[..n].iter(), |o, &a| o.push_str(if a { "true" } else { "false" }));
        o.push_str(", \"queue\": ");
        ints(&mut o, v.queue.as_slice());
        let _ = write!(o, ", \"asked\": {}, \"started\": {}, \"round_over\": {}}}", v.asked, v.started, v.round_over);
        parts += 1;
    }
    if g.has_dirk() {
        if parts > 0 {
            o.push_str(", ");
        }
        o.push_str("\"dirk\": {\"tiles\": ");
        ints(&mut o, g.dirk.as_slice());
        let _ = write!(o, ", \"score\": {}}}", g.dirk_score);
    }
    o.push_str("}, \"pile_sizes\": ");
    ints(&mut o, g.pile_sizes.as_slice());
    o.push('}');
    o
}

/// The scoring records as the save writes them.
fn scorings(o: &mut String, g: &Game) {
    list(o, g.scorings.iter(), |o, r| {
        let parts = r.participants as usize;
        let _ = write!(o, "{{\"number\": {}, \"participants\": ", r.number);
        ints(o, &(0..parts).collect::<Vec<_>>());
        o.push_str(", \"counts\": ");
        let table = |o: &mut String, row: &[i32; TYPES]| {
            if r.bare {
                o.push_str("{}");
            } else {
                per_type(o, row)
            }
        };
        list(o, 0..parts, |o, i| {
            let counts = r.counts[i].map(|c| c as i32);
            table(o, &counts)
        });
        o.push_str(", \"majority\": ");
        list(o, 0..parts, |o, i| table(o, &r.majority[i]));
        o.push_str(", \"walls\": ");
        ints(o, &r.walls[..parts]);
        match r.position {
            Some(points) => {
                o.push_str(", \"extra\": {\"position\": ");
                ints(o, &points[..parts]);
                o.push_str("}}");
            }
            None => o.push_str(", \"extra\": {}}"),
        }
    });
}

/// What a result record reads of the state: the turn, the start player, the scorings and each
/// seat's hand.
pub fn summary_json(g: &Game) -> String {
    let mut o = String::with_capacity(1024);
    let _ = write!(o, "{{\"turn\": {}, \"start_player\": {}, \"scorings\": ", g.turn, g.start_player);
    scorings(&mut o, g);
    o.push_str(", \"hands\": ");
    list(&mut o, 0..g.n as usize, |o, p| cards(o, g.players[p].hand.as_slice()));
    o.push('}');
    o
}

/// The points of every scoring held, by source and seat, as `alhambra.lab.records.scoring_points`
/// writes them: per scoring its number and per seat the majority points by type, the walls, the
/// extra columns and the total; with Dirk (R-TWO-3), his total.
fn points(o: &mut String, g: &Game) {
    let n = g.n as usize;
    list(o, g.scorings.iter(), |o, r| {
        let _ = write!(o, "{{\"number\": {}, \"seats\": ", r.number);
        list(o, (0..r.participants as usize).filter(|&i| i < n), |o, i| {
            o.push_str("{\"majority\": ");
            if r.bare {
                o.push_str("{}");
            } else {
                per_type(o, &r.majority[i]);
            }
            let _ = write!(o, ", \"walls\": {}, \"extra\": ", r.walls[i]);
            match r.position {
                Some(p) => {
                    let _ = write!(o, "{{\"position\": {}}}", p[i]);
                }
                None => o.push_str("{}"),
            }
            let _ = write!(o, ", \"total\": {}}}", r.total(i));
        });
        if r.participants as usize > n {
            let dirk: i32 = (n..r.participants as usize).map(|i| r.total(i)).sum();
            let _ = write!(o, ", \"dirk\": {dirk}");
        }
        o.push('}');
    });
}

/// What a result record needs beyond the scores, as JSON: `tallies` (per seat, in the shape
/// of `alhambra.lab.tally.tallies`: the counts of `t` and, from the final state, the buildings
/// in the Alhambra by type, the reserve and the longest outer wall), `action_counts` (the
/// actions by class name, in the order first played), `points` (the scorings' points, as
/// [`points`]), `turn`, `start_player` and `money_left` (per seat, the money cards' value in
/// hand, diamonds and offices apart).
pub fn record_json(g: &mut Game, t: &Tally) -> String {
    let mut o = String::with_capacity(4096);
    o.push_str("{\"tallies\": ");
    let n = g.n as usize;
    let mut walls = [0i32; MAX_PLAYERS];
    for p in 0..n {
        walls[p] = g.players[p].city.longest_outer_wall();
    }
    list(&mut o, 0..n, |o, p| {
        let s = &t.seats[p];
        o.push_str("{\"bought\": ");
        list(o, s.bought.iter(), |o, b| per_type(o, b));
        o.push_str(", \"received\": ");
        per_type(o, &s.received);
        o.push_str(", \"built\": ");
        per_type(o, &g.players[p].city.type_counts());
        let _ = write!(
            o,
            ", \"reserve\": {}, \"wall\": {}, \"money_taken\": {}, \"money_spent\": {}, \"purchases\": {}, \
             \"exact\": {}, \"actions\": {{",
            g.players[p].reserve.len(),
            walls[p],
            s.money_taken,
            s.money_spent,
            s.purchases,
            s.exact
        );
        let mut names: Stack<(&str, u32), KINDS> = Stack::new();
        for (k, &c) in s.actions.iter().enumerate() {
            if c == 0 {
                continue;
            }
            match names.iter().position(|&(m, _)| m == KIND_NAMES[k]) {
                Some(i) => names.as_mut_slice()[i].1 += c,
                None => names.push((KIND_NAMES[k], c)),
            }
        }
        names.as_mut_slice().sort_by_key(|&(m, _)| m);
        for (i, (m, c)) in names.iter().enumerate() {
            let _ = write!(o, "{}\"{m}\": {c}", if i > 0 { ", " } else { "" });
        }
        o.push_str("}}");
    });
    o.push_str(", \"action_counts\": {");
    let mut done: Stack<&str, KINDS> = Stack::new();
    for &k in t.first_seen.iter() {
        let name = KIND_NAMES[k as usize];
        if done.iter().any(|&m| m == name) {
            continue;
        }
        let c: u32 = (0..KINDS).filter(|&j| KIND_NAMES[j] == name).map(|j| t.kinds[j]).sum();
        let _ = write!(o, "{}\"{name}\": {c}", if done.is_empty() { "" } else { ", " });
        done.push(name);
    }
    o.push_str("}, \"points\": ");
    points(&mut o, g);
    let _ = write!(o, ", \"turn\": {}, \"start_player\": {}", g.turn, g.start_player);
    o.push_str(", \"money_left\": ");
    list(&mut o, 0..n, |o, p| {
        let v: u32 = g.players[p].hand.iter().filter(|&&c| is_money(c)).map(|&c| value(c) as u32).sum();
        let _ = write!(o, "{v}");
    });
    o.push('}');
    o
}
