//! One player's Alhambra (R-PLACE-1 … R-PLACE-6, R-TURN-5, R-TURN-6, R-SCORE-5): the tiles
//! around the fountain, as a sorted inline list of cells, and the facts the placement rules
//! read (the frontier with what each empty cell's neighbours show), worked out once per
//! layout and kept until the next change.
//!
//! A cell is `(x + 128) << 8 | (y + 128)`: sorting cells sorts positions by `(x, y)`, as the
//! Python engine lists them, and a neighbour is one addition (north -1, east +256, south +1,
//! west -256). An Alhambra of at most 58 tiles never reaches 128 cells from the fountain.

use crate::data::{EAST, FOUNTAIN, NORTH, SOUTH, TILE_TYPE, TILE_WALLS, TYPES, WEST};
use crate::huts::{HUT_FIRST, HUT_TILES};
use crate::stack::Stack;
use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

pub type Cell = u16;
pub const ORIGIN: Cell = (128 << 8) | 128;
/// The most tiles an Alhambra holds (fountain, 54 buildings, a module's few).
pub const MAX_TILES: usize = 64;
pub const MAX_FRONT: usize = 160;
/// The most sides an Alhambra has declared open (a gate per gate card, R-GATE-1).
pub const MAX_GATES: usize = 6;

/// (step, this tile's side, the neighbour's facing side): north, east, south, west.
pub const STEPS: [(i32, u8, u8); 4] = [(-1, NORTH, SOUTH), (256, EAST, WEST), (1, SOUTH, NORTH), (-256, WEST, EAST)];

#[inline]
pub fn cell_of(x: i32, y: i32) -> Option<Cell> {
    if (-120..=120).contains(&x) && (-120..=120).contains(&y) {
        Some((((x + 128) as u16) << 8) | (y + 128) as u16)
    } else {
        None
    }
}

#[inline]
pub fn xy(c: Cell) -> (i32, i32) {
    ((c >> 8) as i32 - 128, (c & 255) as i32 - 128)
}

#[inline]
fn step(c: Cell, s: i32) -> Cell {
    (c as i32 + s) as Cell
}

/// The holes variant of R-PLACE-6: one enclosed cell, or any enclosed empty region.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Holes {
    Cell,
    Region,
}

/// Which cells hold a tile, as a bitmap over the tiles' bounding box (one bit test per cell
/// asked) when it is at most 62 cells wide and high, else by the sorted list.
struct Occupancy {
    x0: i32,
    y0: i32,
    rows: Option<[u64; 64]>,
}

impl Occupancy {
    fn of(cells: &[Cell]) -> Occupancy {
        let (mut x0, mut x1, mut y0, mut y1) = (i32::MAX, i32::MIN, i32::MAX, i32::MIN);
        for &c in cells {
            let (x, y) = ((c >> 8) as i32, (c & 255) as i32);
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
        if x1 - x0 > 61 || y1 - y0 > 61 {
            return Occupancy { x0, y0, rows: None };
        }
        // one cell of margin on every side, so that every neighbour of a tile is in the map
        let (x0, y0) = (x0 - 1, y0 - 1);
        let mut rows = [0u64; 64];
        for &c in cells {
            rows[((c >> 8) as i32 - x0) as usize] |= 1 << ((c & 255) as i32 - y0);
        }
        Occupancy { x0, y0, rows: Some(rows) }
    }

    #[inline]
    fn has(&self, q: Cell, city: &City) -> bool {
        match &self.rows {
            Some(rows) => rows[((q >> 8) as i32 - self.x0) as usize] >> ((q & 255) as i32 - self.y0) & 1 != 0,
            None => city.find(q).is_ok(),
        }
    }
}

/// `PLACE_FIT[touch << 4 | need]`: bit m set for every wall mask m with walls exactly on the
/// `need` sides among the `touch` sides (R-PLACE-3) and at least one touching side open
/// (R-PLACE-5).
const fn place_fit() -> [u16; 256] {
    let mut out = [0u16; 256];
    let mut i = 0;
    while i < 256 {
        let touch = (i >> 4) as u8;
        let need = (i & 15) as u8;
        let mut m = 0u8;
        while m < 16 {
            if (m & touch) == need && (touch & !m) != 0 {
                out[i] |= 1 << m;
            }
            m += 1;
        }
        i += 1;
    }
    out
}
pub const PLACE_FIT: [u16; 256] = place_fit();

/// Blocks of 2^40 stamps, one per thread that changes a city (see [`next_stamp`]).
static STAMP_BLOCKS: AtomicU64 = AtomicU64::new(1);

thread_local! {
    /// The last stamp this thread gave (0: none yet).
    static LAST_STAMP: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The next [`City::stamp`]: unique in the process (each thread counts through a block of its
/// own, so threads stepping games at once share no counter), never 0.
#[inline]
fn next_stamp() -> u64 {
    LAST_STAMP.with(|last| {
        let mut v = last.get();
        if v & ((1 << 40) - 1) == (1 << 40) - 1 || v == 0 {
            v = STAMP_BLOCKS.fetch_add(1, Ordering::Relaxed) << 40;
        }
        v += 1;
        last.set(v);
        v
    })
}

#[derive(Clone, Copy)]
pub struct City {
    /// tile cells, sorted, and the tile on each
    cells: Stack<Cell, MAX_TILES>,
    tiles: Stack<u8, MAX_TILES>,
    /// the frontier (empty cells sharing a side with a tile), sorted, with each one's fact
    /// `touch << 4 | need` (sides where a tile stands; those whose tile shows a wall)
    front: Stack<(Cell, u8), MAX_FRONT>,
    /// frontier cells where building leaves a hole (R-PLACE-6), sorted
    barred: Stack<Cell, MAX_FRONT>,
    removable: Stack<Cell, MAX_TILES>,
    /// per tile (as `cells`), the sides where another tile stands
    touch: Stack<u8, MAX_TILES>,
    /// the sides declared open for walking (city gates, R-GATE-6), in the order they were
    /// opened, each as `(cell, EAST | SOUTH)` of the tile west or north of it
    gates: Stack<(Cell, u8), MAX_GATES>,
    /// what is worked out: bit 0 frontier and barred, bit 1 removable; wall length (-1: not yet)
    fresh: u8,
    wall_len: i16,
    /// see [`City::stamp`]
    stamp: u64,
    pub holes: Holes,
    /// the walls of the building huts (R-HUT-1: the game's layout), by hut index
    pub hut_walls: [u8; HUT_TILES],
}

impl City {
    pub fn new(holes: Holes) -> City {
        let mut c = City {
            cells: Stack::new(),
            tiles: Stack::new(),
            front: Stack::new(),
            barred: Stack::new(),
            removable: Stack::new(),
            touch: Stack::new(),
            gates: Stack::new(),
            fresh: 0,
            wall_len: -1,
            stamp: next_stamp(),
            holes,
            hut_walls: [0; HUT_TILES],
        };
        c.cells.push(ORIGIN);
        c.tiles.push(FOUNTAIN);
        c
    }

    /// A copy to try a change on and read its wall or tiles (a bot's "what if"): changes to it
    /// leave the frontier to be worked out when asked instead of keeping it up to date.
    pub fn sketch(&self) -> City {
        City { fresh: 0, ..*self }
    }

    /// An Alhambra whose building huts have the walls `hut_walls` (R-HUT-1, R-PLACE-7).
    pub fn with_huts(holes: Holes, hut_walls: [u8; HUT_TILES]) -> City {
        City { hut_walls, ..City::new(holes) }
    }

    /// The wall mask of `tile`: a building's printed walls, a hut's from the layout.
    #[inline]
    pub fn walls(&self, tile: u8) -> u8 {
        match TILE_WALLS.get(tile as usize) {
            Some(&w) => w,
            None => self.hut_walls.get(tile.wrapping_sub(HUT_FIRST) as usize).copied().unwrap_or(0),
        }
    }

    #[inline]
    fn find(&self, c: Cell) -> Result<usize, usize> {
        self.cells.as_slice().binary_search(&c)
    }

    #[inline]
    pub fn tile_at(&self, c: Cell) -> Option<u8> {
        self.find(c).ok().map(|i| self.tiles[i])
    }

    pub fn len(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// `(cell, tile)` for every tile, fountain included, sorted by cell.
    pub fn iter(&self) -> impl Iterator<Item = (Cell, u8)> + '_ {
        self.cells.iter().copied().zip(self.tiles.iter().copied())
    }

    pub fn has_tile(&self, tile: u8) -> bool {
        self.tiles.contains(tile)
    }

    fn changed(&mut self) {
        self.fresh = 0;
        self.wall_len = -1;
        self.stamp = next_stamp();
    }

    /// A number no other layout has had (in this process): it changes with every change of
    /// this one, so that whoever keeps something worked out from a city (an observation
    /// buffer) knows it is still good by one comparison. A copy keeps it until it changes.
    #[inline]
    pub fn stamp(&self) -> u64 {
        self.stamp
    }

    /// Build `tile` at the empty cell `c` (the caller has checked the rules).
    pub fn place(&mut self, tile: u8, c: Cell) {
        let i = self.find(c).expect_err("the cell is empty");
        self.cells.insert(i, c);
        self.tiles.insert(i, tile);
        if !self.incremental() {
            return self.changed();
        }
        // the cell leaves the frontier; the sides its fact showed touching are its own (a
        // tile set down apart from the others, as a position is read, works everything out anew)
        let Ok(k) = self.front_index(c) else {
            return self.changed();
        };
        let (_, fact) = self.front.remove(k);
        self.touch.insert(i, fact >> 4);
        let w = self.walls(tile);
        for &(s, side, opp) in STEPS.iter() {
            let q = step(c, s);
            if fact >> 4 & side != 0 {
                let j = self.find(q).unwrap();
                self.touch[j] |= opp;
            } else {
                let shows = opp << 4 | if w & side != 0 { opp } else { 0 };
                match self.front_index(q) {
                    Ok(k) => self.front[k].1 |= shows,
                    Err(k) => self.front.insert(k, (q, shows)),
                }
            }
        }
        self.rebar();
    }

    /// Remove the tile at `c` and return it.
    pub fn remove(&mut self, c: Cell) -> u8 {
        let i = self.find(c).expect("a tile stands there");
        self.cells.remove(i);
        let t = self.tiles.remove(i);
        if !self.incremental() {
            self.changed();
            return t;
        }
        // the cell joins the frontier, showing what its neighbours show it
        let touch = self.touch.remove(i);
        let mut need = 0u8;
        for &(s, side, opp) in STEPS.iter() {
            let q = step(c, s);
            if touch & side != 0 {
                let j = self.find(q).unwrap();
                self.touch[j] &= !opp;
                if self.walls(self.tiles[j]) & opp != 0 {
                    need |= side;
                }
            } else if let Ok(k) = self.front_index(q) {
                let fact = self.front[k].1 & !(opp << 4 | opp);
                if fact == 0 {
                    self.front.remove(k);
                } else {
                    self.front[k].1 = fact;
                }
            }
        }
        let k = self.front_index(c).expect_err("a tile stood there");
        self.front.insert(k, (c, touch << 4 | need));
        self.rebar();
        t
    }

    /// Put `tile` at `c` in place of the tile there; returns the old one.
    pub fn swap(&mut self, tile: u8, c: Cell) -> u8 {
        let i = self.find(c).expect("a tile stands there");
        let old = self.tiles[i];
        self.tiles[i] = tile;
        if !self.incremental() {
            self.changed();
            return old;
        }
        // the empty neighbours see the new walls
        let (touch, w) = (self.touch[i], self.walls(tile));
        for &(s, side, opp) in STEPS.iter() {
            if touch & side == 0 {
                let k = self.front_index(step(c, s)).unwrap();
                let fact = self.front[k].1 & !opp;
                self.front[k].1 = fact | if w & side != 0 { opp } else { 0 };
            }
        }
        self.rebar();
        old
    }

    /// With single-cell holes (R-PLACE-6) and the frontier worked out, a change updates the
    /// frontier and the touching sides of the cell and its four neighbours only; otherwise
    /// everything is worked out again when next asked.
    #[inline]
    fn incremental(&self) -> bool {
        self.fresh & 1 != 0 && self.holes == Holes::Cell
    }

    #[inline]
    fn front_index(&self, q: Cell) -> Result<usize, usize> {
        self.front.as_slice().binary_search_by_key(&q, |&(f, _)| f)
    }

    /// After an incremental change: the barred cells again, what is derived from the frontier
    /// (the removable tiles, the wall) marked stale.
    fn rebar(&mut self) {
        self.fresh = 1;
        self.wall_len = -1;
        self.stamp = next_stamp();
        self.bar();
    }

    /// Buildings per type (R-SCORE-2): tiles 1-54 only.
    pub fn type_counts(&self) -> [u8; TYPES] {
        let mut out = [0u8; TYPES];
        for &t in self.tiles.iter() {
            if (1..=54).contains(&t) {
                out[TILE_TYPE[t as usize] as usize] += 1;
            }
        }
        out
    }

    // -- the frontier and the placement rules (R-PLACE-2 … R-PLACE-6) --------------------------

    fn ensure_front(&mut self) {
        if self.fresh & 1 != 0 {
            return;
        }
        let occupied = Occupancy::of(self.cells.as_slice());
        self.touch.clear();
        self.front.clear();
        match occupied.rows {
            Some(rows) => self.front_from_rows(&occupied, &rows),
            None => self.front_from_list(&occupied),
        }
        self.bar();
        self.fresh |= 1;
    }

    /// The frontier cells where building leaves a hole (R-PLACE-6).
    fn bar(&mut self) {
        self.barred.clear();
        match self.holes {
            Holes::Cell => {
                // an empty cell with tiles on three sides bars its fourth neighbour
                let mut bars: Stack<Cell, MAX_FRONT> = Stack::new();
                for &(q, fact) in self.front.iter() {
                    let touch = fact >> 4;
                    if touch.count_ones() == 3 {
                        for &(s, side, _) in STEPS.iter() {
                            if touch & side == 0 {
                                bars.push(step(q, s));
                            }
                        }
                    }
                }
                let bs = bars.as_mut_slice();
                bs.sort_unstable();
                for (k, &b) in bs.iter().enumerate() {
                    if k == 0 || b != bs[k - 1] {
                        self.barred.push(b);
                    }
                }
            }
            Holes::Region => {
                for k in 0..self.front.len() {
                    let q = self.front[k].0;
                    if self.hole_after_placing(q) {
                        self.barred.push(q);
                    }
                }
            }
        }
    }

    /// The frontier from the occupancy bitmap (rows by x, bits by y, a cell of margin all
    /// round): shifted rows give each cell's neighbours at once, so the frontier comes out
    /// sorted, row by row, without a sort.
    fn front_from_rows(&mut self, occupied: &Occupancy, rows: &[u64; 64]) {
        // per side, the cells whose tile shows a wall there (R-PLACE-3)
        let mut wall = [[0u64; 64]; 4];
        let mut width = 0usize;
        for i in 0..self.cells.len() {
            let c = self.cells[i];
            let (x, y) = (((c >> 8) as i32 - occupied.x0) as usize, (c & 255) as i32 - occupied.y0);
            width = width.max(x + 2);
            let w = self.walls(self.tiles[i]);
            let mut touch = 0u8;
            for (k, &(_, side, _)) in STEPS.iter().enumerate() {
                if w & side != 0 {
                    wall[k][x] |= 1 << y;
                }
            }
            let row = rows[x];
            touch |= if row >> (y - 1) & 1 != 0 { NORTH } else { 0 };
            touch |= if rows[x + 1] >> y & 1 != 0 { EAST } else { 0 };
            touch |= if row >> (y + 1) & 1 != 0 { SOUTH } else { 0 };
            touch |= if rows[x - 1] >> y & 1 != 0 { WEST } else { 0 };
            self.touch.push(touch);
        }
        let [wall_n, wall_e, wall_s, wall_w] = &wall;
        for x in 0..width {
            let at = |m: &[u64; 64], k: usize| m.get(k).copied().unwrap_or(0);
            let (west, east) = (if x > 0 { rows[x - 1] } else { 0 }, at(rows, x + 1));
            let (north, south) = (rows[x] << 1, rows[x] >> 1);
            let mut free = (north | south | east | west) & !rows[x];
            if free == 0 {
                continue;
            }
            // the walls the neighbours show this cell: a north neighbour's south wall, ...
            let need_n = wall_s[x] << 1;
            let need_s = wall_n[x] >> 1;
            let need_e = at(wall_w, x + 1);
            let need_w = if x > 0 { wall_e[x - 1] } else { 0 };
            let cx = ((x as i32 + occupied.x0) as Cell) << 8;
            while free != 0 {
                let y = free.trailing_zeros();
                free &= free - 1;
                let bit = |m: u64, side: u8| if m >> y & 1 != 0 { side } else { 0 };
                let touch = bit(north, NORTH) | bit(east, EAST) | bit(south, SOUTH) | bit(west, WEST);
                let need = bit(need_n, NORTH) | bit(need_e, EAST) | bit(need_s, SOUTH) | bit(need_w, WEST);
                self.front.push((cx | (y as i32 + occupied.y0) as Cell, touch << 4 | need));
            }
        }
    }

    /// The frontier from the sorted list (an Alhambra too wide or high for the bitmap).
    fn front_from_list(&mut self, occupied: &Occupancy) {
        // each tile's empty neighbours, as `cell << 8 | what the tile shows that cell`: the side
        // of the cell it touches, and the same side again where the tile has a wall there
        let mut seen: Stack<u32, 256> = Stack::new();
        for i in 0..self.cells.len() {
            let (c, w) = (self.cells[i], self.walls(self.tiles[i]));
            let mut touch = 0u8;
            for &(s, side, opp) in STEPS.iter() {
                let q = step(c, s);
                if occupied.has(q, self) {
                    touch |= side;
                } else {
                    let need = if w & side != 0 { opp } else { 0 };
                    seen.push((q as u32) << 8 | (opp << 4 | need) as u32);
                }
            }
            self.touch.push(touch);
        }
        let all = seen.as_mut_slice();
        all.sort_unstable();
        for &v in all.iter() {
            let (q, fact) = ((v >> 8) as Cell, (v & 255) as u8);
            match self.front.as_mut_slice().last_mut() {
                Some(last) if last.0 == q => last.1 |= fact,
                _ => self.front.push((q, fact)),
            }
        }
    }

    /// R-PLACE-6 (holes = "region"): would building at `c` leave an enclosed empty area?
    fn hole_after_placing(&self, c: Cell) -> bool {
        for &(s, _, _) in STEPS.iter() {
            let q = step(c, s);
            if self.find(q).is_ok() {
                continue;
            }
            if !self.reaches_outside(q, Some(c), None) {
                return true;
            }
        }
        false
    }

    /// True if the empty cell `start` connects through empty cells to beyond the bounding
    /// box of the tiles, with `filled` counted as a tile and `emptied` as empty.
    fn reaches_outside(&self, start: Cell, filled: Option<Cell>, emptied: Option<Cell>) -> bool {
        let (mut x0, mut x1, mut y0, mut y1) = (u16::MAX, 0u16, u16::MAX, 0u16);
        for &c in self.cells.iter() {
            let (cx, cy) = (c >> 8, c & 255);
            x0 = x0.min(cx);
            x1 = x1.max(cx);
            y0 = y0.min(cy);
            y1 = y1.max(cy);
        }
        let mut seen: Stack<Cell, 1024> = Stack::new();
        let mut todo: Stack<Cell, 1024> = Stack::new();
        seen.push(start);
        todo.push(start);
        while let Some(c) = todo.pop() {
            let (cx, cy) = (c >> 8, c & 255);
            if cx <= x0 || cx >= x1 || cy <= y0 || cy >= y1 {
                return true;
            }
            for &(s, _, _) in STEPS.iter() {
                let q = step(c, s);
                let free = Some(q) == emptied || (self.find(q).is_err() && Some(q) != filled);
                if free && !seen.contains(q) {
                    seen.push(q);
                    todo.push(q);
                }
            }
        }
        false
    }

    /// The frontier cells, sorted, where a tile of wall mask `mask` may be built
    /// (R-PLACE-2 … R-PLACE-6), appended to `out`.
    pub fn place_cells(&mut self, mask: u8, out: &mut impl FnMut(Cell)) {
        self.ensure_front();
        let bit = 1u16 << mask;
        for &(q, fact) in self.front.iter() {
            if PLACE_FIT[fact as usize] & bit != 0 && self.barred.as_slice().binary_search(&q).is_err() {
                out(q);
            }
        }
    }

    /// Why a tile of mask `mask` may not be built at `c` (None: it may).
    pub fn can_place(&mut self, mask: u8, c: Cell) -> bool {
        self.ensure_front();
        match self.front.as_slice().binary_search_by_key(&c, |&(q, _)| q) {
            Ok(k) => {
                PLACE_FIT[self.front[k].1 as usize] & (1 << mask) != 0
                    && self.barred.as_slice().binary_search(&c).is_err()
            }
            Err(_) => false,
        }
    }

    // -- removal and swap (R-TURN-5, R-TURN-6) ------------------------------------------------

    /// The sides of the tile at index `i` through which one walks to a neighbouring tile:
    /// no wall, or a side declared open (R-PLACE-5, R-GATE-6) (the frontier must be worked out).
    fn links(&self, i: usize) -> u8 {
        self.touch[i] & (!self.walls(self.tiles[i]) | self.open_mask(self.cells[i]))
    }

    fn ensure_removable(&mut self) {
        if self.fresh & 2 != 0 {
            return;
        }
        self.ensure_front();
        let n = self.cells.len();
        // the link graph: neighbours by index
        let mut adj = [[u8::MAX; 4]; MAX_TILES];
        for i in 0..n {
            let l = self.links(i);
            let c = self.cells[i];
            // sorted by (x, y), a north or south neighbour is the cell just before or after
            if l & NORTH != 0 {
                adj[i][0] = (i - 1) as u8;
            }
            if l & SOUTH != 0 {
                adj[i][2] = (i + 1) as u8;
            }
            if l & EAST != 0 {
                adj[i][1] = (i + 1 + self.cells.as_slice()[i + 1..].binary_search(&step(c, 256)).unwrap()) as u8;
            }
            if l & WEST != 0 {
                adj[i][3] = self.cells.as_slice()[..i].binary_search(&step(c, -256)).unwrap() as u8;
            }
        }
        // articulation points of the link graph, rooted at the fountain (iterative DFS)
        let root = self.find(ORIGIN).unwrap();
        let mut disc = [u8::MAX; MAX_TILES];
        let mut low = [0u8; MAX_TILES];
        let mut cut = [false; MAX_TILES];
        let mut stack: Stack<(u8, u8, u8), MAX_TILES> = Stack::new(); // (vertex, parent, next side)
        disc[root] = 0;
        low[root] = 0;
        let mut counter = 1u8;
        stack.push((root as u8, u8::MAX, 0));
        while let Some(&(v, parent, k)) = stack.as_slice().last() {
            let v = v as usize;
            if (k as usize) < 4 {
                let top = stack.len() - 1;
                stack[top].2 = k + 1;
                let w = adj[v][k as usize];
                if w == u8::MAX || w == parent {
                    continue;
                }
                let w = w as usize;
                if disc[w] != u8::MAX {
                    low[v] = low[v].min(disc[w]);
                } else {
                    disc[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push((w as u8, v as u8, 0));
                }
            } else {
                stack.pop();
                if parent != u8::MAX {
                    let p = parent as usize;
                    low[p] = low[p].min(low[v]);
                    if p != root && low[v] >= disc[p] {
                        cut[p] = true;
                    }
                }
            }
        }
        self.removable.clear();
        for i in 0..n {
            let c = self.cells[i];
            if c == ORIGIN || cut[i] || disc[i] == u8::MAX || self.is_held(c) {
                continue;
            }
            let ok = match self.holes {
                Holes::Cell => self.touch[i] != 15,
                Holes::Region => self.reaches_outside(c, None, Some(c)),
            };
            if ok {
                self.removable.push(c);
            }
        }
        self.fresh |= 2;
    }

    /// The tiles, sorted, that may be moved to the reserve (R-TURN-5 ii, R-TURN-6).
    pub fn removable(&mut self) -> &[Cell] {
        self.ensure_removable();
        self.removable.as_slice()
    }

    /// Every tile cell (sorted, fountain excluded) a tile of mask `mask` could replace
    /// (R-TURN-5 iii): its walls match every neighbour, so every link stays.
    pub fn swap_cells(&mut self, mask: u8, out: &mut impl FnMut(Cell)) {
        self.ensure_front();
        for i in 0..self.cells.len() {
            let c = self.cells[i];
            if c != ORIGIN && (mask ^ self.walls(self.tiles[i])) & self.touch[i] == 0 && !self.is_held(c) {
                out(c);
            }
        }
    }

    /// R-TURN-6: would removing the tile at `c` leave a hole (with `Holes::Region`, an enclosed
    /// empty area)?
    pub fn hole_after_removing(&mut self, c: Cell) -> bool {
        self.ensure_front();
        match self.holes {
            Holes::Cell => self.find(c).is_ok_and(|i| self.touch[i] == 15),
            Holes::Region => !self.reaches_outside(c, None, Some(c)),
        }
    }

    // -- sides declared open (city gates, R-GATE-5 … R-GATE-7) --------------------------------

    /// The sides declared open, in the order they were opened, each as `(cell, EAST | SOUTH)`
    /// of the tile west or north of it.
    pub fn gates(&self) -> &[(Cell, u8)] {
        self.gates.as_slice()
    }

    /// The sides of cell `c` declared open (R-GATE-6).
    #[inline]
    pub fn open_mask(&self, c: Cell) -> u8 {
        let mut m = 0;
        for &(g, side) in self.gates.iter() {
            if side == EAST {
                m |= if g == c {
                    EAST
                } else if step(g, 256) == c {
                    WEST
                } else {
                    0
                };
            } else {
                m |= if g == c {
                    SOUTH
                } else if step(g, 1) == c {
                    NORTH
                } else {
                    0
                };
            }
        }
        m
    }

    /// R-GATE-7: the tile at `c` is joined to a neighbour by a gate, so it stays (neither
    /// removed nor swapped).
    #[inline]
    pub fn is_held(&self, c: Cell) -> bool {
        !self.gates.is_empty() && self.open_mask(c) != 0
    }

    /// Declare side `side` (NORTH, EAST, SOUTH or WEST) of cell `c` open for walking (a gate,
    /// R-GATE-6); false, and nothing declared, when no more fit.
    pub fn open_side(&mut self, c: Cell, side: u8) -> bool {
        let (g, s) = match side {
            WEST => (step(c, -256), EAST),
            NORTH => (step(c, -1), SOUTH),
            s => (c, s),
        };
        if self.gates.len() >= MAX_GATES {
            return false;
        }
        self.gates.push((g, s));
        self.changed();
        true
    }

    /// The double walls without a gate (R-GATE-5: two tiles meeting wall against wall), each
    /// once as `(cell, EAST | SOUTH)`, sorted.
    pub fn double_walls(&self, out: &mut impl FnMut(Cell, u8)) {
        for (c, t) in self.iter() {
            let m = self.walls(t);
            for (s, side, opp) in [(256, EAST, WEST), (1, SOUTH, NORTH)] {
                if m & side == 0 {
                    continue;
                }
                let Some(other) = self.tile_at(step(c, s)) else { continue };
                if self.walls(other) & opp != 0 && !self.gates.contains((c, side)) {
                    out(c, side);
                }
            }
        }
    }

    /// True if the Alhambra has a double wall without a gate.
    pub fn has_double_wall(&self) -> bool {
        let mut any = false;
        self.double_walls(&mut |_, _| any = true);
        any
    }

    /// The frontier cells, sorted, where R-PLACE-5 alone forbids a tile of mask `mask`: it
    /// matches every neighbour (R-PLACE-3), all of them wall against wall, and building there
    /// leaves no hole (R-PLACE-6); a gate on one of those double walls lets it in (R-GATE-6).
    pub fn walled_off_cells(&mut self, mask: u8, out: &mut impl FnMut(Cell)) {
        self.ensure_front();
        for &(q, fact) in self.front.iter() {
            let (touch, need) = (fact >> 4, fact & 15);
            if need == touch && mask & touch == touch && self.barred.as_slice().binary_search(&q).is_err() {
                out(q);
            }
        }
    }

    /// How many sides of tiles show no wall and face an empty cell: where the Alhambra can
    /// still grow (R-PLACE-5; the greedy bot's `open_sides`), with one bit test per side.
    pub fn open_sides(&self) -> i32 {
        let occupied = Occupancy::of(self.cells.as_slice());
        let mut n = 0;
        for i in 0..self.cells.len() {
            let (c, m) = (self.cells[i], self.walls(self.tiles[i]));
            for &(s, side, _) in STEPS.iter() {
                if m & side == 0 && !occupied.has(step(c, s), self) {
                    n += 1;
                }
            }
        }
        n
    }

    /// The sides of cell `c` across which a tile stands.
    pub fn sides_with_tiles(&self, c: Cell) -> u8 {
        STEPS.iter().filter(|&&(s, _, _)| self.find(step(c, s)).is_ok()).fold(0, |m, &(_, side, _)| m | side)
    }

    // -- the longest outer wall (R-SCORE-5) ---------------------------------------------------

    pub fn longest_outer_wall(&mut self) -> i32 {
        if self.wall_len < 0 {
            self.wall_len = self.compute_wall() as i16;
        }
        self.wall_len as i32
    }

    fn compute_wall(&self) -> i32 {
        WALLS.with(|walls| {
            let mut w = walls.borrow_mut();
            w.edges.clear();
            let free = |q: Cell| self.find(q).is_err();
            // corners named by the cell they are the north-west corner of
            for (c, t) in self.iter() {
                let m = self.walls(t);
                if m == 0 {
                    continue;
                }
                if m & NORTH != 0 && free(c - 1) {
                    w.edges.push((c, c + 256));
                }
                if m & EAST != 0 && free(c + 256) {
                    w.edges.push((c + 256, c + 257));
                }
                if m & SOUTH != 0 && free(c + 1) {
                    w.edges.push((c + 1, c + 257));
                }
                if m & WEST != 0 && free(c - 256) {
                    w.edges.push((c, c + 1));
                }
            }
            w.longest()
        })
    }
}

/// The most wall segments an Alhambra shows outward (four per tile).
const MAX_EDGES: usize = 4 * MAX_TILES;
/// The most corners those segments join.
const MAX_CORNERS: usize = 2 * MAX_EDGES;

thread_local! {
    /// The wall graph's arrays, reused from one count to the next (no allocation, nothing
    /// cleared but what a count uses).
    static WALLS: RefCell<Box<Trails>> = RefCell::new(Box::new(Trails::new()));
}

/// The longest trail (no segment twice) in a graph of wall segments: a component with at
/// most two odd corners counts whole (an Euler trail), others are searched exhaustively.
pub fn longest_trail(edges: &[(Cell, Cell)]) -> i32 {
    WALLS.with(|walls| {
        let mut w = walls.borrow_mut();
        w.edges.clear();
        for &e in edges {
            w.edges.push(e);
        }
        w.longest()
    })
}

/// The wall graph of [`longest_trail`]: its segments, and per corner (a corner of the grid
/// joins at most four segments, one each way) its segments as (other corner, segment).
struct Trails {
    edges: Stack<(Cell, Cell), MAX_EDGES>,
    corners: Stack<Cell, MAX_CORNERS>,
    adj: [[(u16, u16); 4]; MAX_CORNERS],
    degree: [u8; MAX_CORNERS],
    used: [bool; MAX_EDGES],
    comp_of: [u16; MAX_CORNERS],
    comp: Stack<u16, MAX_CORNERS>,
}

impl Trails {
    fn new() -> Trails {
        Trails {
            edges: Stack::new(),
            corners: Stack::new(),
            adj: [[(0, 0); 4]; MAX_CORNERS],
            degree: [0; MAX_CORNERS],
            used: [false; MAX_EDGES],
            comp_of: [0; MAX_CORNERS],
            comp: Stack::new(),
        }
    }

    /// The longest trail over `self.edges`.
    fn longest(&mut self) -> i32 {
        let m = self.edges.len();
        if m == 0 {
            return 0;
        }
        // corners as indices
        self.corners.clear();
        for k in 0..m {
            let (a, b) = self.edges[k];
            self.corners.push(a);
            self.corners.push(b);
        }
        let cs = self.corners.as_mut_slice();
        cs.sort_unstable();
        let mut nc = 1;
        for k in 1..cs.len() {
            if cs[k] != cs[nc - 1] {
                cs[nc] = cs[k];
                nc += 1;
            }
        }
        self.corners.truncate(nc);
        self.degree[..nc].fill(0);
        self.comp_of[..nc].fill(u16::MAX);
        self.used[..m].fill(false);
        for i in 0..m {
            let (a, b) = self.edges[i];
            let ia = self.corners.as_slice().binary_search(&a).unwrap();
            let ib = self.corners.as_slice().binary_search(&b).unwrap();
            self.link(ia, ib, i);
            self.link(ib, ia, i);
        }
        let mut best = 0i32;
        for start in 0..nc {
            if self.comp_of[start] != u16::MAX {
                continue;
            }
            self.comp.clear();
            self.comp.push(start as u16);
            self.comp_of[start] = start as u16;
            let mut k = 0;
            let (mut degree_sum, mut odd) = (0usize, 0usize);
            while k < self.comp.len() {
                let v = self.comp[k] as usize;
                k += 1;
                let d = self.degree[v] as usize;
                degree_sum += d;
                odd += d & 1;
                for j in 0..d {
                    let w = self.adj[v][j].0 as usize;
                    if self.comp_of[w] == u16::MAX {
                        self.comp_of[w] = start as u16;
                        self.comp.push(w as u16);
                    }
                }
            }
            let n_edges = (degree_sum / 2) as i32;
            if n_edges <= best {
                continue;
            }
            if odd <= 2 {
                best = n_edges;
                continue;
            }
            let mut found = 0i32;
            for k in 0..self.comp.len() {
                let v = self.comp[k] as usize;
                if self.degree[v] % 2 == 1 {
                    self.walk(v, 0, &mut found, n_edges);
                }
            }
            best = best.max(found);
        }
        best
    }

    fn link(&mut self, a: usize, b: usize, edge: usize) {
        self.adj[a][self.degree[a] as usize] = (b as u16, edge as u16);
        self.degree[a] += 1;
    }

    /// The longest trail on from corner `v` over unused segments, `length` walked so far.
    fn walk(&mut self, v: usize, length: i32, best: &mut i32, limit: i32) {
        if length > *best {
            *best = length;
        }
        for k in 0..self.degree[v] as usize {
            let (w, i) = self.adj[v][k];
            if !self.used[i as usize] && *best < limit {
                self.used[i as usize] = true;
                self.walk(w as usize, length + 1, best, limit);
                self.used[i as usize] = false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Mt;

    /// The frontier, the holes it bars and the touching sides, worked out from nothing.
    fn from_scratch(city: &City) -> City {
        let mut fresh = *city;
        fresh.fresh = 0;
        fresh.ensure_front();
        fresh
    }

    /// The straightforward search (adjacency lists on the heap), as the reference.
    fn reference_trail(edges: &[(Cell, Cell)]) -> i32 {
        if edges.is_empty() {
            return 0;
        }
        let mut corners: Vec<Cell> = edges.iter().flat_map(|&(a, b)| [a, b]).collect();
        corners.sort_unstable();
        corners.dedup();
        let idx = |c: Cell| corners.binary_search(&c).unwrap();
        let mut adj: Vec<Vec<(usize, usize)>> = vec![Vec::new(); corners.len()];
        for (i, &(a, b)) in edges.iter().enumerate() {
            adj[idx(a)].push((idx(b), i));
            adj[idx(b)].push((idx(a), i));
        }
        fn walk(adj: &[Vec<(usize, usize)>], v: usize, length: i32, used: &mut [bool], best: &mut i32) {
            *best = (*best).max(length);
            for &(w, i) in &adj[v] {
                if !used[i] {
                    used[i] = true;
                    walk(adj, w, length + 1, used, best);
                    used[i] = false;
                }
            }
        }
        let mut best = 0;
        for v in 0..corners.len() {
            walk(&adj, v, 0, &mut vec![false; edges.len()], &mut best);
        }
        best
    }

    /// R-SCORE-5: the longest outer wall, searched in fixed arrays with the Euler shortcut,
    /// equals a plain exhaustive search from every corner, on Alhambras built at random.
    #[test]
    fn r_score_5_longest_wall_equals_the_exhaustive_search() {
        for seed in 0..60u64 {
            let mut rng = Mt::from_seed(1000 + seed);
            let mut city = City::new(Holes::Cell);
            let mut cells: Vec<Cell> = Vec::new();
            for step in 0..(8 + seed as usize % 10) {
                let tile = 1 + rng.below(54) as u8;
                cells.clear();
                let walls = city.walls(tile);
                city.place_cells(walls, &mut |c| cells.push(c));
                if !cells.is_empty() && !city.has_tile(tile) {
                    city.place(tile, cells[rng.below(cells.len() as u32) as usize]);
                }
                let mut edges: Vec<(Cell, Cell)> = Vec::new();
                for (c, t) in city.iter() {
                    let m = city.walls(t);
                    for (side, (p, q), n) in [
                        (NORTH, (c, c + 256), c - 1),
                        (EAST, (c + 256, c + 257), c + 256),
                        (SOUTH, (c + 1, c + 257), c + 1),
                        (WEST, (c, c + 1), c - 256),
                    ] {
                        if m & side != 0 && city.tile_at(n).is_none() {
                            edges.push((p, q));
                        }
                    }
                }
                assert_eq!(city.longest_outer_wall(), reference_trail(&edges), "seed {seed}, step {step}");
            }
        }
    }

    /// R-SCORE-5 on wall graphs of every shape (branches, crossings, several pieces): random
    /// segments of a small grid, the search in fixed arrays against the plain one.
    #[test]
    fn r_score_5_longest_trail_on_branching_walls() {
        let mut branching = 0;
        for seed in 0..300u64 {
            let mut rng = Mt::from_seed(seed);
            let mut edges: Vec<(Cell, Cell)> = Vec::new();
            for x in 0..4u16 {
                for y in 0..4u16 {
                    let c = ORIGIN + (x << 8) + y;
                    if rng.below(3) == 0 {
                        edges.push((c, c + 256));
                    }
                    if rng.below(3) == 0 {
                        edges.push((c, c + 1));
                    }
                }
            }
            let mut degree = std::collections::HashMap::new();
            for &(a, b) in &edges {
                *degree.entry(a).or_insert(0) += 1;
                *degree.entry(b).or_insert(0) += 1;
            }
            branching += usize::from(degree.values().filter(|&&d| d % 2 == 1).count() > 2);
            assert_eq!(longest_trail(&edges), reference_trail(&edges), "seed {seed}: {edges:?}");
        }
        assert!(branching > 100, "the search past the Euler shortcut is tried ({branching} graphs)");
        // a T of arms two long: four odd corners, the longest trail two arms
        let t = [(ORIGIN, ORIGIN + 256), (ORIGIN + 256, ORIGIN + 512), (ORIGIN, ORIGIN - 256)];
        let t =
            [t.as_slice(), &[(ORIGIN - 256, ORIGIN - 512), (ORIGIN, ORIGIN + 1), (ORIGIN + 1, ORIGIN + 2)]].concat();
        assert_eq!(longest_trail(&t), 4);
    }

    /// R-PLACE-2 … R-PLACE-6, R-TURN-5: the facts kept up to date cell by cell, as tiles are
    /// built, removed and swapped, equal those worked out from the whole layout.
    #[test]
    fn r_place_6_incremental_frontier_equals_the_whole_layouts() {
        for seed in 0..40u64 {
            let mut rng = Mt::from_seed(seed);
            let mut city = City::new(Holes::Cell);
            let mut cells: Vec<Cell> = Vec::new();
            for _ in 0..120 {
                let tile = 1 + rng.below(54) as u8;
                let walls = city.walls(tile);
                match rng.below(6) {
                    0 if city.len() > 1 => {
                        let removable = city.removable().to_vec();
                        if !removable.is_empty() {
                            city.remove(removable[rng.below(removable.len() as u32) as usize]);
                        }
                    }
                    1 if city.len() > 1 => {
                        cells.clear();
                        city.swap_cells(walls, &mut |c| cells.push(c));
                        if !cells.is_empty() && !city.has_tile(tile) {
                            city.swap(tile, cells[rng.below(cells.len() as u32) as usize]);
                        }
                    }
                    _ => {
                        cells.clear();
                        city.place_cells(walls, &mut |c| cells.push(c));
                        if !cells.is_empty() && !city.has_tile(tile) {
                            city.place(tile, cells[rng.below(cells.len() as u32) as usize]);
                        }
                    }
                }
                city.ensure_front();
                let whole = from_scratch(&city);
                assert_eq!(city.front, whole.front, "seed {seed}");
                assert_eq!(city.touch, whole.touch, "seed {seed}");
                assert_eq!(city.barred, whole.barred, "seed {seed}");
            }
            assert!(city.len() > 10, "seed {seed}: the test builds an Alhambra ({} tiles)", city.len());
        }
    }
}
