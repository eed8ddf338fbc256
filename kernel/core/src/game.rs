//! The game: its state, the set-up (R-SET-1 … R-SET-7), the legal actions and their effects
//! (R-TURN-1 … R-TURN-9, R-TWO-1 … R-TWO-5), the scorings (R-SCORE-1 … R-SCORE-6) and the end
//! (R-END-1 … R-END-4), as the Python engine's built-in plugins play them; the turn sequence
//! is the Python engine's `engine/sequence.py` (an action says what comes next, `advance`
//! carries it out).
//!
//! The whole state is one `Copy` value of fixed size: cloning it is one copy, and no action
//! allocates.

use crate::city::{cell_of, Cell, City, Holes};
use crate::data::*;
use crate::draws;
use crate::gates::{changes_city, GatesState};
use crate::huts::{HutLayout, HutState};
use crate::rng::Mt;
use crate::stack::Stack;

pub const MIN_PLAYERS: usize = 2;
pub const MAX_PLAYERS: usize = 6;
/// R-SET-3, R-SET-5, R-TURN-2, R-TWO-3
const STARTING_MONEY: u32 = 20;
const DISPLAY_SIZE: usize = 4;
const TAKE_LIMIT: u8 = 5;
const DIRK_SETUP: usize = 6;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Phase {
    Turn = 0,
    Place = 1,
    Distribution = 2,
    Over = 3,
    /// the vizier's asking round between two turns (R-VIZ-5)
    Vizier = 4,
    /// the window for gates after a change of an Alhambra, or before a removal (R-GATE-5)
    Gates = 5,
}

impl Phase {
    /// Every phase, by its number (`phase as usize`).
    pub const ALL: [Phase; 6] =
        [Phase::Turn, Phase::Place, Phase::Distribution, Phase::Over, Phase::Vizier, Phase::Gates];

    pub fn name(self) -> &'static str {
        match self {
            Phase::Turn => "turn",
            Phase::Place => "place",
            Phase::Distribution => "distribution",
            Phase::Over => "over",
            Phase::Vizier => "vizier",
            Phase::Gates => "gates",
        }
    }
}

/// R-DIA-1 (ruling): the values of the diamond cards when `diamonds.values` is not given.
pub const DEFAULT_DIAMONDS: [u8; 10] = [3, 4, 5, 5, 6, 6, 7, 7, 8, 9];
/// The most diamond values `diamonds.values` holds (the Python module's limit).
pub const MAX_DIAMONDS: usize = 20;

/// The options of the base game: `holes` (R-PLACE-6), `tiebreak` (R-END-4), `start_player`
/// (R-SET-4); and the module options `diamonds.values` (R-DIA-1: the diamond cards' values, in
/// the order they join the money cards; used only with the diamonds module), the hut layout
/// of `building_huts.layout` (R-HUT-1: the huts' colours and walls; used only with the building
/// huts) and `city_gates.cards` (R-GATE-1: how many gate cards, 1-6; 0 for the default, one per
/// player and two with two players).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Options {
    pub holes: Holes,
    pub tiebreak_money: bool,
    pub start_random: bool,
    pub diamonds: Stack<u8, MAX_DIAMONDS>,
    pub gate_cards: u8,
    pub huts: HutLayout,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            holes: Holes::Cell,
            tiebreak_money: false,
            start_random: false,
            diamonds: Stack::from_slice(&DEFAULT_DIAMONDS),
            gate_cards: 0,
            huts: HutLayout::default(),
        }
    }
}

impl Options {
    /// Why `values` cannot be the kernel's `diamonds.values`, or `None`: 1 to 20 values 1-9
    /// (R-DIA-1, as the Python module checks), at most [`DIAMOND_COPIES`] of one value (the
    /// copies the kernel's cards tell apart).
    pub fn diamond_values_refusal(values: &[u8]) -> Option<String> {
        if values.is_empty() || values.len() > MAX_DIAMONDS {
            return Some(format!("between 1 and {MAX_DIAMONDS} diamond values, not {}", values.len()));
        }
        if let Some(v) = values.iter().find(|v| !(1..=9).contains(*v)) {
            return Some(format!("diamond values are 1-9 (R-DIA-1), not {v}"));
        }
        for v in 1..=9u8 {
            if values.iter().filter(|&&x| x == v).count() > DIAMOND_COPIES as usize {
                return Some(format!("at most {DIAMOND_COPIES} diamonds of one value, not more of value {v}"));
            }
        }
        None
    }
}

/// The modules the kernel plays, as bits of `Game::mods`.
pub const VIZIER: u8 = 1;
pub const BUILDING_HUTS: u8 = 2;
pub const BONUS: u8 = 4;
pub const OFFICES: u8 = 8;
pub const GATES: u8 = 16;
pub const DIAMONDS: u8 = 32;
/// The modules the kernel plays.
pub const KERNEL_MODULES: u8 = VIZIER | BUILDING_HUTS | BONUS | OFFICES | GATES | DIAMONDS;
/// The modules the kernel plays by the names their Python packages are enabled under (the
/// `NAME` of each `alhambra_*` package), with their bits: the bridge (`alhambra.kernel`) reads
/// this table, so no module is named on the Python side.
pub const MODULE_NAMES: [(&str, u8); 6] = [
    ("vizier", VIZIER),
    ("building_huts", BUILDING_HUTS),
    ("bonus_cards", BONUS),
    ("exchange_offices", OFFICES),
    ("city_gates", GATES),
    ("diamonds", DIAMONDS),
];

/// A payment for the building on market `space` (1-4): `counts[0][v-1]` cards of value v of
/// the space's currency and, through the exchange office `via` (0: none, R-EXC-4),
/// `counts[1][v-1]` of the office's other currency.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Payment {
    pub space: u8,
    pub via: u8,
    pub counts: [[u8; 9]; 2],
}

impl Payment {
    /// The currency of `counts[k]`.
    pub fn currency(&self, k: usize) -> u8 {
        let own = self.space - 1;
        if k == 0 || self.via == 0 {
            return own;
        }
        let (a, b) = office_pair(self.via);
        if a == own {
            b
        } else {
            a
        }
    }

    pub fn total(&self) -> u32 {
        self.counts.iter().flat_map(|c| c.iter().enumerate()).map(|(v, &k)| (v as u32 + 1) * k as u32).sum()
    }

    /// The cards, in the canonical order of an action's cards (currency name, then value).
    pub fn cards(&self, out: &mut Stack<u8, 64>) {
        out.clear();
        for k in 0..2 {
            let cur = self.currency(k);
            for (v, &n) in self.counts[k].iter().enumerate() {
                for _ in 0..n {
                    out.push(money(cur, v as u8 + 1));
                }
            }
        }
        out.as_mut_slice().sort_by_key(|&c| canonical_rank(c));
    }
}

/// A payment all in diamonds for the building on market `space` (1-4) (R-DIA-4): `mask` has
/// bit `(value - 1) * DIAMOND_COPIES + copy - 1` for each diamond paid, so the bits in order
/// are the cards in their canonical order (value, then copy).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct DiamondPay {
    pub space: u8,
    pub mask: u64,
}

impl DiamondPay {
    /// The diamond cards paid, in canonical order.
    pub fn cards(&self) -> impl Iterator<Item = u8> + '_ {
        let mask = self.mask;
        (0..9 * DIAMOND_COPIES).filter(move |&b| mask >> b & 1 == 1).map(|b| DIAMOND_FIRST + b)
    }

    pub fn total(&self) -> u32 {
        self.cards().map(|c| value(c) as u32).sum()
    }

    /// The payment of `cards` (diamonds, each once) on `space`, or `None`.
    pub fn of_cards(space: u8, cards: &[u8]) -> Option<DiamondPay> {
        let mut mask = 0u64;
        for &c in cards {
            if !is_diamond(c) || mask >> (c - DIAMOND_FIRST) & 1 == 1 {
                return None;
            }
            mask |= 1 << (c - DIAMOND_FIRST);
        }
        Some(DiamondPay { space, mask })
    }

    fn code(&self, kind: u64) -> u64 {
        kind << 59 | (self.space as u64 - 1) << 54 | self.mask
    }

    fn of_code(v: u64) -> DiamondPay {
        DiamondPay { space: ((v >> 54) & 3) as u8 + 1, mask: v & ((1 << 54) - 1) }
    }
}

/// An action, as the Python engine's action classes (cards in their canonical order).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Action {
    /// TakeMoney: up to 4 cards of the money display (R-TURN-2)
    Take {
        cards: [u8; 4],
        n: u8,
    },
    /// Buy (R-TURN-3, R-EXC-4)
    Buy(Payment),
    Build {
        tile: u8,
        cell: Cell,
    },
    Remove {
        cell: Cell,
    },
    Swap {
        tile: u8,
        cell: Cell,
    },
    Place {
        tile: u8,
        cell: Cell,
    },
    Reserve {
        tile: u8,
    },
    GiveToDirk {
        tile: u8,
    },
    Pass,
    /// TakeOffice: an exchange office of the money display (R-EXC-3)
    TakeOffice {
        card: u8,
    },
    /// UseVizier: an exact purchase between two turns (R-VIZ-2)
    UseVizier(Payment),
    DeclineVizier,
    ReactivateVizier,
    /// BuyWithDiamonds: a building on any market space paid all in diamonds (R-DIA-4)
    BuyDiamonds(DiamondPay),
    /// UseVizier paying exactly in diamonds (R-DIA-6)
    UseVizierDiamonds(DiamondPay),
    /// RevealBonus: a free action (R-BON-3)
    RevealBonus {
        building: u8,
    },
    /// TakeHut: a face-up building hut (R-HUT-2)
    TakeHut {
        hut: u8,
    },
    /// TakeGate: the gate card waiting on the gate space, instead of money (R-GATE-4)
    TakeGate {
        card: u8,
    },
    /// PlayGate: a gate on the double wall `side` (EAST or SOUTH) of `cell` (R-GATE-5)
    PlayGate {
        card: u8,
        cell: Cell,
        side: u8,
    },
    /// FinishGates: no more gates with this change (R-GATE-5)
    FinishGates,
    /// BuildThroughGate: a waiting tile built at `cell` with a gate on its `side` (R-GATE-6)
    BuildThroughGate {
        card: u8,
        tile: u8,
        cell: Cell,
        side: u8,
    },
}

fn payment_code(kind: u64, p: &Payment) -> u64 {
    let mut v = kind << 59 | ((p.space as u64 - 1) << 57);
    if p.via != 0 {
        v |= ((p.via - OFFICE_FIRST) as u64 + 1) << 54;
    }
    for k in 0..2 {
        for (i, &c) in p.counts[k].iter().enumerate() {
            v |= (c as u64) << (27 * k + 3 * i);
        }
    }
    v
}

fn payment_of(v: u64) -> Option<Payment> {
    let via = ((v >> 54) & 7) as u8;
    if via > 6 {
        return None;
    }
    let space = ((v >> 57) & 3) as u8 + 1;
    let mut p = Payment { space, via: if via == 0 { 0 } else { OFFICE_FIRST + via - 1 }, ..Default::default() };
    if p.via != 0 {
        let (a, b) = office_pair(p.via);
        if a != space - 1 && b != space - 1 {
            return None;
        }
    }
    for k in 0..2 {
        for i in 0..9 {
            p.counts[k][i] = ((v >> (27 * k + 3 * i)) & 7) as u8;
        }
    }
    Some(p)
}

impl Action {
    /// The action as one integer: the kind in the top five bits, its fields below.
    pub fn code(&self) -> u64 {
        match *self {
            Action::Take { cards, n } => {
                let mut v = 1u64 << 59;
                for (k, &c) in cards.iter().take(n as usize).enumerate() {
                    v |= (c as u64 + 1) << (8 * k);
                }
                v
            }
            Action::Buy(p) => payment_code(2, &p),
            Action::Build { tile, cell } => 3u64 << 59 | (tile as u64) << 16 | cell as u64,
            Action::Remove { cell } => 4u64 << 59 | cell as u64,
            Action::Swap { tile, cell } => 5u64 << 59 | (tile as u64) << 16 | cell as u64,
            Action::Place { tile, cell } => 6u64 << 59 | (tile as u64) << 16 | cell as u64,
            Action::Reserve { tile } => 7u64 << 59 | tile as u64,
            Action::GiveToDirk { tile } => 8u64 << 59 | tile as u64,
            Action::Pass => 9u64 << 59,
            Action::TakeOffice { card } => 10u64 << 59 | card as u64,
            Action::UseVizier(p) => payment_code(11, &p),
            Action::DeclineVizier => 12u64 << 59,
            Action::ReactivateVizier => 13u64 << 59,
            Action::BuyDiamonds(p) => p.code(14),
            Action::UseVizierDiamonds(p) => p.code(15),
            Action::RevealBonus { building } => 16u64 << 59 | building as u64,
            Action::TakeHut { hut } => 17u64 << 59 | hut as u64,
            Action::TakeGate { card } => 18u64 << 59 | card as u64,
            Action::PlayGate { card, cell, side } => {
                19u64 << 59 | (card as u64) << 32 | (side as u64) << 24 | cell as u64
            }
            Action::FinishGates => 20u64 << 59,
            Action::BuildThroughGate { card, tile, cell, side } => {
                21u64 << 59 | (card as u64) << 32 | (side as u64) << 24 | (tile as u64) << 16 | cell as u64
            }
        }
    }

    /// The action of a code, or `None` for a code no action has.
    pub fn from_code(v: u64) -> Option<Action> {
        let kind = v >> 59;
        let tile = ((v >> 16) & 255) as u8;
        let cell = (v & 0xffff) as Cell;
        Some(match kind {
            1 => {
                let mut cards = [0u8; 4];
                let mut n = 0u8;
                for (k, slot) in cards.iter_mut().enumerate() {
                    let c = ((v >> (8 * k)) & 255) as u8;
                    if c == 0 {
                        break;
                    }
                    if !is_cash(c - 1) {
                        return None;
                    }
                    *slot = c - 1;
                    n += 1;
                }
                Action::Take { cards, n }
            }
            2 => Action::Buy(payment_of(v)?),
            3 => Action::Build { tile, cell },
            4 => Action::Remove { cell },
            5 => Action::Swap { tile, cell },
            6 => Action::Place { tile, cell },
            7 => Action::Reserve { tile: (v & 255) as u8 },
            8 => Action::GiveToDirk { tile: (v & 255) as u8 },
            9 => Action::Pass,
            10 if is_office((v & 255) as u8) => Action::TakeOffice { card: (v & 255) as u8 },
            11 => Action::UseVizier(payment_of(v)?),
            12 => Action::DeclineVizier,
            13 => Action::ReactivateVizier,
            14 | 15 => {
                let p = DiamondPay::of_code(v);
                if p.mask == 0 || (v >> 56) & 7 != 0 {
                    return None;
                }
                if kind == 14 {
                    Action::BuyDiamonds(p)
                } else {
                    Action::UseVizierDiamonds(p)
                }
            }
            16 if BONUS_CARDS.contains(&((v & 255) as u8)) && v >> 8 & ((1 << 51) - 1) == 0 => {
                Action::RevealBonus { building: (v & 255) as u8 }
            }
            17 if crate::huts::is_hut((v & 255) as u8) && v >> 8 & ((1 << 51) - 1) == 0 => {
                Action::TakeHut { hut: (v & 255) as u8 }
            }
            18 if is_gate((v & 255) as u8) && v >> 8 & ((1 << 51) - 1) == 0 => {
                Action::TakeGate { card: (v & 255) as u8 }
            }
            19 | 21 => {
                let card = ((v >> 32) & 255) as u8;
                let side = ((v >> 24) & 255) as u8;
                if !is_gate(card) || v >> 40 & ((1 << 19) - 1) != 0 {
                    return None;
                }
                if kind == 19 {
                    if (side != EAST && side != SOUTH) || tile != 0 {
                        return None;
                    }
                    Action::PlayGate { card, cell, side }
                } else {
                    if ![NORTH, EAST, SOUTH, WEST].contains(&side)
                        || (!(1..=54).contains(&tile) && !crate::huts::is_hut(tile))
                    {
                        return None;
                    }
                    Action::BuildThroughGate { card, tile, cell, side }
                }
            }
            20 if v & ((1 << 59) - 1) == 0 => Action::FinishGates,
            _ => return None,
        })
    }
}

/// One scoring (R-SCORE-1 … R-SCORE-5): per participant (the seats, then Dirk), buildings per
/// type, majority points per type and the longest outer wall.
#[derive(Clone, Copy, Default, Debug, PartialEq)]
pub struct Scoring {
    pub number: u8,
    pub participants: u8,
    pub counts: [[u8; TYPES]; 7],
    pub majority: [[i32; TYPES]; 7],
    pub walls: [i32; 7],
    /// the points of a scoring that a position records only as totals (its column
    /// `"position"`): the one extra column a game of the kernel's rules can hold
    pub position: Option<[i32; 7]>,
    /// the counts and majorities are not recorded (a position's scorings: empty tables)
    pub bare: bool,
}

impl Scoring {
    pub fn total(&self, i: usize) -> i32 {
        self.majority[i].iter().sum::<i32>() + self.walls[i] + self.position.map_or(0, |p| p[i])
    }
}

#[derive(Clone, Copy)]
pub struct Player {
    pub hand: Stack<u8, MAX_CARDS>,
    pub city: City,
    pub reserve: Stack<u8, 64>,
    pub score: i32,
}

/// Where a placement started continues (`state.place_context`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Context {
    None,
    Turn,
    Distribution,
    Vizier,
}

/// What comes next after an action (the Python engine's `Next` values; `None` there is
/// `Next::Same` here: the same seat decides again).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Next {
    Same,
    ActionDone(bool),
    /// a vizier purchase is placed at once (R-VIZ-3): the seat and the tile
    PlaceVizier(u8, u8),
    FinishTurn,
    Resume,
    EndGame,
    Recipient,
    /// a seat decides now in a phase (a module's window, R-GATE-5, and the way back from it)
    Decide(u8, Phase),
}

/// An action the rules refuse, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Illegal(pub String);

#[derive(Clone, Copy)]
pub struct Game {
    pub n: u8,
    pub opts: Options,
    pub players: [Player; MAX_PLAYERS],
    pub bag: Stack<u8, 54>,
    /// tile per market space, 0 for an empty space
    pub market: [u8; 4],
    pub deck: Stack<u8, MAX_CARDS>,
    pub discard: Stack<u8, MAX_CARDS>,
    pub display: Stack<u8, 8>,
    pub start_player: u8,
    pub turn_player: u8,
    /// who decides now; `None` once the game is over
    pub decider: Option<u8>,
    pub phase: Phase,
    pub turn: u32,
    pub pending: Stack<(u8, bool), 16>,
    pub place_context: Context,
    pub pending_scorings: Stack<u8, 4>,
    pub scoring_cards: Stack<u8, 2>,
    pub scorings: Stack<Scoring, 3>,
    pub distribution: Stack<(u8, Stack<u8, 4>), 6>,
    pub out_of_play: Stack<u8, 4>,
    pub pile_sizes: Stack<u8, 8>,
    /// Dirk's buildings and points (two players, R-TWO-3, R-TWO-4)
    pub dirk: Stack<u8, 54>,
    pub dirk_score: i32,
    /// how many of the last actions were passes (R-TURN-9, R-END-1)
    pub passes: u8,
    pub rng: Mt,
    /// the enabled modules (`VIZIER`, `BUILDING_HUTS`, `BONUS`, `OFFICES`, `DIAMONDS`)
    pub mods: u8,
    pub vizier: VizierState,
    pub bonus: BonusState,
    /// the city gates besides the Alhambras' gates (R-GATE-1 … R-GATE-9)
    pub gates: GatesState,
    pub huts: HutState,
}

/// Where the bonus cards are (R-BON-1 … R-BON-5), as the module's `BonusCardsState`: per seat
/// the hidden cards, the revealed ones, the ones it ever revealed (`owned`) and the ones it
/// cannot hold (`not_held`); and the cards out of play. Each a bit set over [`BONUS_CARDS`]
/// (bit k: `BONUS_CARDS[k]`; the module keeps its lists sorted, as the bits are). `owned` and
/// `not_held` are kept only with `record` (saves written before they existed hold none).
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct BonusState {
    pub hands: [u16; MAX_PLAYERS],
    pub revealed: [u16; MAX_PLAYERS],
    pub out_of_play: u16,
    pub owned: [u16; MAX_PLAYERS],
    pub not_held: [u16; MAX_PLAYERS],
    /// `owned` is recorded (one list per seat) / `not_held` is
    pub has_owned: bool,
    pub has_not_held: bool,
}

/// The bit of a bonus card (the building it pictures), or `None` for a building without one.
pub fn bonus_bit(building: u8) -> Option<u16> {
    BONUS_CARDS.iter().position(|&b| b == building).map(|k| 1 << k)
}

/// Cards a game can hold in one list (hand, deck, discard pile): the money cards, the scoring
/// cards, the exchange offices, the diamonds and the gate cards.
pub const MAX_CARDS: usize = 144;

/// The vizier tokens and the asking between two turns (R-VIZ-1 … R-VIZ-5), as the module's
/// `VizierState`: `asked` is -1 when nobody is asked.
#[derive(Clone, Copy, Default, Debug, PartialEq)]
pub struct VizierState {
    pub active: [bool; MAX_PLAYERS],
    pub queue: Stack<u8, 8>,
    pub asked: i8,
    pub started: bool,
    pub round_over: bool,
}

/// Majority points of one type in one scoring (R-SCORE-2 … R-SCORE-4).
pub fn majority_points(counts: &[u8], places: &[i32], out: &mut [i32]) {
    for o in out.iter_mut() {
        *o = 0;
    }
    let mut rank = 0usize;
    let mut level = u8::MAX;
    loop {
        // the next lower count held by someone
        let next = counts.iter().copied().filter(|&c| c > 0 && c < level).max();
        let Some(l) = next else { break };
        level = l;
        if rank >= places.len() {
            break;
        }
        let tied = counts.iter().filter(|&&c| c == l).count();
        let end = (rank + tied).min(places.len());
        let share = places[rank..end].iter().sum::<i32>() / tied as i32;
        for (i, &c) in counts.iter().enumerate() {
            if c == l {
                out[i] = share;
            }
        }
        rank += tied;
    }
}

/// Split cards (in drawing order) into 5 piles as equal as possible, the first piles taking
/// the extra cards (R-SET-6); returns the sizes.
fn pile_sizes(n: usize) -> [usize; 5] {
    let (q, r) = (n / 5, n % 5);
    let mut out = [q; 5];
    for s in out.iter_mut().take(r) {
        *s += 1;
    }
    out
}

/// The total value of the money cards and diamonds among `cards` (R-SET-3, R-SET-4, R-DIA-2).
fn money_sum(cards: &[u8]) -> u32 {
    cards.iter().map(|&c| value(c) as u32).sum()
}

impl Game {
    /// A new game of `n` players set up from `seed` (R-SET-1 … R-SET-7), exactly as
    /// `alhambra.new_game(n, seed=seed, options=...)` sets it up.
    pub fn new(n: usize, seed: u64, opts: Options) -> Game {
        Game::with_modules(n, seed, opts, 0)
    }

    /// A new game with the modules `mods` (bits of [`KERNEL_MODULES`]) enabled.
    pub fn with_modules(n: usize, seed: u64, opts: Options, mods: u8) -> Game {
        assert!((MIN_PLAYERS..=MAX_PLAYERS).contains(&n));
        assert!(mods & !KERNEL_MODULES == 0, "a module the kernel does not play");
        let city = City::with_huts(opts.holes, opts.huts.walls);
        let blank = Player { hand: Stack::new(), city, reserve: Stack::new(), score: 0 };
        let mut g = Game {
            n: n as u8,
            opts,
            players: [blank; MAX_PLAYERS],
            bag: Stack::new(),
            market: [0; 4],
            deck: Stack::new(),
            discard: Stack::new(),
            display: Stack::new(),
            start_player: 0,
            turn_player: 0,
            decider: Some(0),
            phase: Phase::Turn,
            turn: 1,
            pending: Stack::new(),
            place_context: Context::None,
            pending_scorings: Stack::new(),
            scoring_cards: Stack::new(),
            scorings: Stack::new(),
            distribution: Stack::new(),
            out_of_play: Stack::new(),
            pile_sizes: Stack::new(),
            dirk: Stack::new(),
            dirk_score: 0,
            passes: 0,
            rng: Mt::from_seed(seed),
            mods,
            vizier: VizierState { asked: -1, ..Default::default() },
            bonus: BonusState::default(),
            gates: GatesState::default(),
            huts: HutState::default(),
        };
        g.setup();
        g.start_turn(g.start_player);
        g
    }

    fn setup(&mut self) {
        let n = self.n as usize;
        // R-SET-1: the buildings into the bag, four onto the market
        let mut bag = [0u8; 54];
        for (i, b) in bag.iter_mut().enumerate() {
            *b = i as u8 + 1;
        }
        self.rng.shuffle(&mut bag);
        self.bag = Stack::from_slice(&bag);
        for i in 0..4 {
            self.market[i] = self.bag.pop().unwrap();
        }
        // R-SET-2: the money cards shuffled (R-TWO-1: with two players one copy of each out)
        let copies = if n == 2 { 2 } else { 3 };
        let mut cards: Stack<u8, MAX_CARDS> = Stack::new();
        for c in 0..4u8 {
            for v in 1..=9u8 {
                for _ in 0..copies {
                    cards.push(money(c, v));
                }
            }
        }
        if self.mods & DIAMONDS != 0 {
            // R-DIA-2: the diamonds join the money cards (after R-TWO-1, which removes none),
            // copies numbered per value in the order of the values
            let mut seen = [0u8; 10];
            for &v in self.opts.diamonds.iter() {
                seen[v as usize] += 1;
                cards.push(diamond(v, seen[v as usize]));
            }
        }
        self.rng.shuffle(cards.as_mut_slice());
        self.deck = cards;
        // R-SET-3: starting money
        for p in 0..n {
            while money_sum(self.players[p].hand.as_slice()) < STARTING_MONEY {
                let c = self.deck.pop().unwrap();
                self.players[p].hand.push(c);
            }
        }
        // R-SET-4: the start player
        let keys: Vec<(usize, u32)> =
            (0..n).map(|p| (self.players[p].hand.len(), money_sum(self.players[p].hand.as_slice()))).collect();
        let best = *keys.iter().min().unwrap();
        let tied: Vec<u8> = (0..n).filter(|&p| keys[p] == best).map(|p| p as u8).collect();
        self.start_player = if self.opts.start_random && tied.len() > 1 {
            tied[self.rng.below(tied.len() as u32) as usize]
        } else {
            tied[0]
        };
        // R-SET-5: the money display
        for _ in 0..DISPLAY_SIZE {
            let c = self.deck.pop().unwrap();
            self.display.push(c);
        }
        // R-SET-6: five piles, scoring card A shuffled into pile 2 and B into pile 4
        let mut order: Stack<u8, MAX_CARDS> = Stack::new();
        for &c in self.deck.as_slice().iter().rev() {
            order.push(c);
        }
        let sizes = pile_sizes(order.len());
        let mut piles: [Stack<u8, 40>; 5] = [Stack::new(); 5];
        let mut k = 0;
        for (i, &s) in sizes.iter().enumerate() {
            piles[i] = Stack::from_slice(&order.as_slice()[k..k + s]);
            k += s;
        }
        for (pile, card) in [(1usize, SCORING_A), (3, SCORING_B)] {
            let at = self.rng.below(piles[pile].len() as u32 + 1) as usize;
            piles[pile].insert(at, card);
        }
        if self.mods & GATES != 0 {
            self.deal_gates(&mut piles); // R-GATE-2
        }
        if self.mods & OFFICES != 0 {
            // R-EXC-1: the six offices, shuffled, two into each of piles 2, 3 and 4
            let mut offices = [0u8; 6];
            for (k, o) in offices.iter_mut().enumerate() {
                *o = OFFICE_FIRST + k as u8;
            }
            self.rng.shuffle(&mut offices);
            for (k, &office) in offices.iter().enumerate() {
                let pile = 1 + k / 2;
                let at = self.rng.below(piles[pile].len() as u32 + 1) as usize;
                piles[pile].insert(at, office);
            }
        }
        self.deck.clear();
        self.pile_sizes.clear();
        for pile in piles.iter().rev() {
            for &c in pile.as_slice().iter().rev() {
                self.deck.push(c);
            }
        }
        for pile in piles.iter() {
            self.pile_sizes.push(pile.len() as u8);
        }
        if self.mods & BONUS != 0 {
            // R-BON-2: the ten bonus cards shuffled and dealt, the rest out of play
            let mut cards = BONUS_CARDS;
            self.rng.shuffle(&mut cards);
            let k = bonus_deal(n);
            let bits = |cs: &[u8]| cs.iter().fold(0u16, |m, &b| m | bonus_bit(b).unwrap());
            for p in 0..n {
                self.bonus.hands[p] = bits(&cards[p * k..(p + 1) * k]);
            }
            self.bonus.out_of_play = bits(&cards[n * k..]);
            self.bonus.has_owned = true;
            self.bonus.has_not_held = true;
        }
        if self.mods & BUILDING_HUTS != 0 {
            self.setup_huts(); // R-HUT-1
        }
        // R-VIZ-1: every vizier active
        if self.mods & VIZIER != 0 {
            for a in self.vizier.active.iter_mut().take(n) {
                *a = true;
            }
        }
        // R-TWO-3: Dirk's six buildings
        if n == 2 {
            for _ in 0..DIRK_SETUP.min(self.bag.len()) {
                let t = self.bag.pop().unwrap();
                self.dirk.push(t);
            }
        }
    }

    fn start_turn(&mut self, seat: u8) {
        self.turn_player = seat;
        self.decider = Some(seat);
        self.phase = Phase::Turn;
        if self.mods & VIZIER != 0 {
            self.vizier.started = false;
            self.vizier.round_over = false;
        }
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    pub fn has_dirk(&self) -> bool {
        self.n == 2
    }

    pub fn current_player(&self) -> Option<u8> {
        if self.phase == Phase::Over {
            None
        } else {
            self.decider
        }
    }

    // -- legal actions --------------------------------------------------------------------------

    /// The legal actions of the player to decide now, in the Python engine's order; `[Pass]`
    /// when nothing else is legal on a turn (R-TURN-9); empty once the game is over.
    pub fn legal(&mut self, out: &mut Vec<Action>) {
        out.clear();
        let Some(seat) = self.current_player() else {
            return;
        };
        let s = seat as usize;
        match self.phase {
            Phase::Turn => {
                if self.mods & DIAMONDS != 0 {
                    self.legal_diamonds(s, false, out); // R-DIA-4
                }
                if self.mods & GATES != 0 {
                    self.legal_gates_turn(s, out); // R-GATE-4 … R-GATE-6
                }
                if self.mods & OFFICES != 0 {
                    // R-EXC-3: an office of the display instead of money, each once
                    for k in 0..self.display.len() {
                        let c = self.display[k];
                        if is_office(c) && !self.display.as_slice()[..k].contains(&c) {
                            out.push(Action::TakeOffice { card: c });
                        }
                    }
                }
                self.legal_reveal(s, out);
                self.legal_take_hut(s, out); // R-HUT-2
                if self.mods & VIZIER != 0 && !self.vizier.active[s] {
                    out.push(Action::ReactivateVizier); // R-VIZ-4
                }
                self.legal_redesign(s, out);
                self.legal_take(out);
                self.legal_buy(s, false, out);
            }
            Phase::Vizier => {
                // R-VIZ-2, R-VIZ-5: the asked seat buys with an exact payment, or declines
                if self.vizier.asked == seat as i8 {
                    if self.vizier.active[s] {
                        let start = out.len();
                        self.legal_buy(s, true, out);
                        for a in out[start..].iter_mut() {
                            if let Action::Buy(p) = *a {
                                *a = Action::UseVizier(p);
                            }
                        }
                        if self.mods & DIAMONDS != 0 {
                            // R-DIA-6: exact payments in diamonds too, after the others
                            let start = out.len();
                            self.legal_diamonds(s, true, out);
                            for a in out[start..].iter_mut() {
                                if let Action::BuyDiamonds(p) = *a {
                                    *a = Action::UseVizierDiamonds(p);
                                }
                            }
                        }
                    }
                    out.push(Action::DeclineVizier);
                }
            }
            Phase::Place => {
                if self.mods & GATES != 0 {
                    self.legal_gates_place(s, out); // R-GATE-6
                }
                self.legal_reveal(s, out);
                if self.has_dirk() {
                    for k in 0..self.pending.len() {
                        let (t, ok) = self.pending[k];
                        if ok && !self.pending.as_slice()[..k].iter().any(|p| p.0 == t) {
                            out.push(Action::GiveToDirk { tile: t });
                        }
                    }
                }
                let distinct = self.distinct_pending();
                let city = &mut self.players[s].city;
                for &t in distinct.iter() {
                    let walls = city.walls(t);
                    city.place_cells(walls, &mut |c| out.push(Action::Place { tile: t, cell: c }));
                }
                for &t in distinct.iter() {
                    out.push(Action::Reserve { tile: t });
                }
            }
            Phase::Gates => self.legal_gates_window(s, out), // R-GATE-5
            Phase::Distribution | Phase::Over => {}
        }
        if out.is_empty() {
            out.push(Action::Pass);
        }
    }

    /// R-BON-3: reveal a hidden bonus card whose building stands in the Alhambra (in the
    /// order of the cards).
    fn legal_reveal(&self, s: usize, out: &mut Vec<Action>) {
        if self.mods & BONUS == 0 || self.bonus.hands[s] == 0 {
            return;
        }
        for (k, &b) in BONUS_CARDS.iter().enumerate() {
            if self.bonus.hands[s] >> k & 1 == 1 && self.players[s].city.has_tile(b) {
                out.push(Action::RevealBonus { building: b });
            }
        }
    }

    /// R-DIA-4 (R-DIA-6 with `exact`): the purchases paid all in diamonds, space by space, as
    /// the module's `minimal_diamond_payments` lists them: each choice of values once (the
    /// first copies in hand of each value), the smallest card needed (only exact totals with
    /// `exact`), by total and then by the values in increasing order.
    fn legal_diamonds(&self, s: usize, exact: bool, out: &mut Vec<Action>) {
        // the copies in hand of each value, by copy number
        let mut copies = [0u8; 9];
        let mut have = [0u8; 9];
        for &c in self.players[s].hand.iter() {
            if is_diamond(c) {
                let v = value(c) as usize - 1;
                copies[v] |= 1 << (diamond_copy(c) - 1);
                have[v] += 1;
            }
        }
        if have == [0; 9] {
            return;
        }
        for i in 0..4 {
            if self.market[i] == 0 {
                continue;
            }
            let price = self.price(i) as u32;
            let start = out.len();
            let mut counts = [0u8; 9];
            diamond_payments(&have, &copies, price, exact, i as u8 + 1, &mut counts, 0, 0, 0, out);
            out[start..].sort_unstable_by_key(|a| match a {
                Action::BuyDiamonds(p) => diamond_key(p),
                _ => unreachable!(),
            });
        }
    }

    fn distinct_pending(&self) -> Stack<u8, 16> {
        let mut out: Stack<u8, 16> = Stack::new();
        for &(t, _) in self.pending.iter() {
            if !out.contains(t) {
                out.push(t);
            }
        }
        out
    }

    /// R-TURN-5, R-TURN-6: builds from the reserve, removals, swaps.
    fn legal_redesign(&mut self, s: usize, out: &mut Vec<Action>) {
        let p = &mut self.players[s];
        let reserve = p.reserve;
        for &t in reserve.iter() {
            let walls = p.city.walls(t);
            p.city.place_cells(walls, &mut |c| out.push(Action::Build { tile: t, cell: c }));
        }
        for &c in p.city.removable() {
            out.push(Action::Remove { cell: c });
        }
        for &t in reserve.iter() {
            let walls = p.city.walls(t);
            p.city.swap_cells(walls, &mut |c| out.push(Action::Swap { tile: t, cell: c }));
        }
    }

    /// R-TURN-2: any one money card, or several totalling at most 5; singles in display
    /// order, then the combinations in display order, each choice once.
    fn legal_take(&self, out: &mut Vec<Action>) {
        let start = out.len();
        let mut money: Stack<u8, 8> = Stack::new();
        for &c in self.display.iter() {
            if is_cash(c) {
                money.push(c);
            }
        }
        for k in 0..money.len() {
            let c = money[k];
            if !money.as_slice()[..k].contains(&c) {
                out.push(Action::Take { cards: [c, 0, 0, 0], n: 1 });
            }
        }
        let small: Stack<u8, 8> = {
            let mut s = Stack::new();
            for &c in money.iter() {
                if value(c) < TAKE_LIMIT {
                    s.push(c);
                }
            }
            s
        };
        let m = small.len();
        if m < 2 {
            return;
        }
        for k in 2..=m {
            // itertools.combinations(small, k), in its order
            let mut idx: Stack<usize, 8> = Stack::new();
            for i in 0..k {
                idx.push(i);
            }
            loop {
                let sum: u8 = idx.iter().map(|&i| value(small[i])).sum();
                if sum <= TAKE_LIMIT {
                    let mut cards = [0u8; 4];
                    for (j, &i) in idx.iter().enumerate() {
                        cards[j] = small[i];
                    }
                    cards[..k].sort_by_key(|&c| canonical_rank(c));
                    let a = Action::Take { cards, n: k as u8 };
                    if !out[start..].contains(&a) {
                        out.push(a);
                    }
                }
                // the next combination (itertools order)
                let mut i = k;
                while i > 0 && idx[i - 1] == i - 1 + m - k {
                    i -= 1;
                }
                if i == 0 {
                    break;
                }
                let i = i - 1;
                idx[i] += 1;
                for j in i + 1..k {
                    idx[j] = idx[j - 1] + 1;
                }
            }
        }
    }

    /// The price of the building on market space index `i` (R-COMP-2), 0 when empty.
    pub fn price(&self, i: usize) -> u8 {
        TILE_PRICE[self.market[i] as usize]
    }

    /// The exchange offices in `s`'s hand, each once, in hand order (R-EXC-4).
    fn offices_of(&self, s: usize) -> Stack<u8, 8> {
        let mut out: Stack<u8, 8> = Stack::new();
        if self.mods & OFFICES != 0 {
            for &c in self.players[s].hand.iter() {
                if is_office(c) && !out.contains(c) {
                    out.push(c);
                }
            }
        }
        out
    }

    /// R-TURN-3, R-EXC-4: every non-dominated payment of each market building (exact ones
    /// only with `exact`), in the Python engine's order: space by space, first in the space's
    /// currency, then through each exchange office in hand (those using its other currency).
    pub fn legal_buy(&self, s: usize, exact: bool, out: &mut Vec<Action>) {
        let hand = &self.players[s].hand;
        let offices = self.offices_of(s);
        // the hand's money by currency and value
        let mut have = [[0u8; 9]; 4];
        let mut total = [0u32; 4];
        for &c in hand.iter() {
            if is_money(c) {
                have[currency(c) as usize][(value(c) - 1) as usize] += 1;
                total[currency(c) as usize] += value(c) as u32;
            }
        }
        for i in 0..4 {
            if self.market[i] == 0 {
                continue;
            }
            let price = self.price(i);
            let cur = i as u8;
            if total[i] >= price as u32 {
                self.payments(&have, &[cur], Payment { space: cur + 1, ..Default::default() }, price, exact, out);
            }
            for &office in offices.iter() {
                let (a, b) = office_pair(office);
                if (a == cur || b == cur) && total[a as usize] + total[b as usize] >= price as u32 {
                    let mut pair = [a, b];
                    pair.sort_by_key(|&c| canonical_rank(money(c, 1)));
                    let p = Payment { space: cur + 1, via: office, ..Default::default() };
                    self.payments(&have, &pair, p, price, exact, out);
                }
            }
        }
    }

    /// The non-dominated payments of `price` from the cards of `currencies` (in name order),
    /// starting from the empty payment `base` (the Python engine's `minimal_payments`).
    fn payments(
        &self,
        have: &[[u8; 9]; 4],
        currencies: &[u8],
        base: Payment,
        price: u8,
        exact: bool,
        out: &mut Vec<Action>,
    ) {
        let mut kinds: Stack<(u8, u8), 18> = Stack::new();
        let mut avail = [0u8; 18];
        let mut total = 0u32;
        for v in (1..=9u8).rev() {
            for &c in currencies {
                let k = have[c as usize][v as usize - 1];
                if k > 0 {
                    avail[kinds.len()] = k;
                    kinds.push((v, c));
                    total += v as u32 * k as u32;
                }
            }
        }
        if kinds.is_empty() || total < price as u32 {
            return;
        }
        // what the kinds from each index on pay at most: a branch that cannot reach the price
        // is not searched
        let mut reach = [0u16; 19];
        for j in (0..kinds.len()).rev() {
            reach[j] = reach[j + 1] + kinds[j].0 as u16 * avail[j] as u16;
        }
        let mut chosen = base;
        let search = Search { kinds: &kinds, reach: &reach, price, exact, wide: base.via != 0 };
        search.extend(&mut avail, &mut chosen, 0, 0, out);
    }

    /// R-TURN-4, R-VIZ-2: can `s` buy some market building with an exact payment now (in the
    /// space's currency or through an office in hand)?
    pub fn can_pay_exactly(&self, s: usize) -> bool {
        let hand = &self.players[s].hand;
        let mut reach = [1u128; 4]; // per currency: the totals some of its cards pay exactly
        for &c in hand.iter() {
            if is_money(c) {
                let r = &mut reach[currency(c) as usize];
                *r |= *r << value(c);
            }
        }
        let offices = self.offices_of(s);
        // R-DIA-6: the totals some (at least one) of the diamonds pay exactly
        let mut gems = 1u128;
        if self.mods & DIAMONDS != 0 {
            for &c in hand.iter() {
                if is_diamond(c) {
                    gems |= gems << value(c);
                }
            }
        }
        gems &= !1;
        for i in 0..4 {
            if self.market[i] == 0 {
                continue;
            }
            let bit = 1u128 << self.price(i);
            if reach[i] & bit != 0 || gems & bit != 0 {
                return true;
            }
            for &office in offices.iter() {
                let (a, b) = office_pair(office);
                if a as usize != i && b as usize != i {
                    continue;
                }
                let mut both = 1u128;
                for &c in hand.iter() {
                    if is_money(c) && (currency(c) == a || currency(c) == b) {
                        both |= both << value(c);
                    }
                }
                if both & bit != 0 {
                    return true;
                }
            }
        }
        false
    }

    // -- applying an action --------------------------------------------------------------------

    /// Carry out `action` for the player to decide now; the game is unchanged when the rules
    /// refuse it.
    pub fn apply(&mut self, action: Action, scratch: &mut Vec<Action>) -> Result<(), Illegal> {
        let Some(seat) = self.current_player() else {
            return Err(Illegal("the game is over (R-END-3): no more actions".into()));
        };
        self.legal(scratch);
        if !scratch.contains(&action) && !self.is_unlisted_payment(seat as usize, &action) {
            return Err(Illegal(format!("{action:?} is not legal now")));
        }
        self.apply_legal(action);
        Ok(())
    }

    /// A purchase paying more than a non-dominated payment (R-TURN-3: any payment that covers
    /// the price is legal; only the non-dominated ones are listed), through an office in hand
    /// or not (R-EXC-4).
    fn is_unlisted_payment(&self, s: usize, action: &Action) -> bool {
        match *action {
            Action::BuyDiamonds(p) if self.mods & DIAMONDS != 0 && self.phase == Phase::Turn => {
                // R-DIA-4: any diamonds in hand covering the price (each listed payment takes the
                // first copies of a value; any copies pay alike)
                return self.diamonds_cover(s, &p, false);
            }
            Action::UseVizierDiamonds(p) if self.mods & DIAMONDS != 0 && self.phase == Phase::Vizier => {
                // R-DIA-6: an exact payment in diamonds, whichever copies
                return self.vizier.asked == s as i8 && self.vizier.active[s] && self.diamonds_cover(s, &p, true);
            }
            _ => {}
        }
        // a purchase on a turn covering the price (R-TURN-3), or the vizier's exact purchase
        // (R-VIZ-2) through an office it does not need (R-EXC-4 lets it be named all the same)
        let (p, exact) = match *action {
            Action::Buy(p) if self.phase == Phase::Turn => (p, false),
            Action::UseVizier(p) if self.phase == Phase::Vizier => {
                if self.vizier.asked != s as i8 || !self.vizier.active[s] {
                    return false;
                }
                (p, true)
            }
            _ => return false,
        };
        if !(1..=4).contains(&p.space) || self.market[p.space as usize - 1] == 0 {
            return false;
        }
        let hand = &self.players[s].hand;
        if p.via != 0 && !(self.mods & OFFICES != 0 && hand.contains(p.via)) {
            return false;
        }
        for k in 0..2 {
            let cur = p.currency(k);
            for v in 0..9 {
                let held = hand.iter().filter(|&&c| c == money(cur, v as u8 + 1)).count();
                if (p.counts[k][v] as usize) > held {
                    return false;
                }
            }
        }
        let price = self.price(p.space as usize - 1) as u32;
        p.total() > 0 && if exact { p.total() == price } else { p.total() >= price }
    }

    /// The diamonds of `p` are in `s`'s hand and pay the building on its space (exactly, with
    /// `exact`) (R-DIA-4).
    fn diamonds_cover(&self, s: usize, p: &DiamondPay, exact: bool) -> bool {
        if !(1..=4).contains(&p.space) || self.market[p.space as usize - 1] == 0 || p.mask == 0 {
            return false;
        }
        let hand = &self.players[s].hand;
        if !p.cards().all(|c| hand.contains(c)) {
            return false;
        }
        let (total, price) = (p.total(), self.price(p.space as usize - 1) as u32);
        total >= price && (!exact || total == price)
    }

    /// Pay the diamonds of `p` from `s`'s hand into the discard pile (R-DIA-4); returns the
    /// building bought, which leaves the market.
    fn pay_diamonds(&mut self, s: usize, p: &DiamondPay) -> u8 {
        for c in p.cards() {
            self.players[s].hand.remove_first(c);
            self.discard.push(c);
        }
        let i = p.space as usize - 1;
        let tile = self.market[i];
        self.market[i] = 0;
        tile
    }

    /// R-BON-4: each revealed bonus card of `s` whose building left the Alhambra goes back to
    /// the hand (hidden) and stops counting.
    fn return_departed(&mut self, s: usize) {
        let shown = self.bonus.revealed[s];
        if shown == 0 {
            return;
        }
        for (k, &b) in BONUS_CARDS.iter().enumerate() {
            if shown >> k & 1 == 1 && !self.players[s].city.has_tile(b) {
                self.bonus.revealed[s] &= !(1 << k);
                self.bonus.hands[s] |= 1 << k;
            }
        }
    }

    /// R-BON-3: `s` reveals the bonus card of `building` (public from now on: `owned`).
    fn reveal(&mut self, s: usize, building: u8) {
        let bit = bonus_bit(building).expect("a bonus card");
        self.bonus.hands[s] &= !bit;
        self.bonus.revealed[s] |= bit;
        if self.bonus.has_owned {
            self.bonus.owned[s] |= bit;
        }
    }

    /// A building bought on a turn, paid `total` for its `price` (read before the payment
    /// emptied its space): set aside to be placed (R-TURN-3, R-TWO-5); an exact payment earns
    /// another action (R-TURN-4).
    fn bought(&mut self, tile: u8, total: u32, price: u8) -> Next {
        self.pending.push((tile, true));
        Next::ActionDone(total == price as u32)
    }

    /// A building the vizier bought (R-VIZ-2/3): the token turns inactive, the asking ends and
    /// the building is placed at once.
    fn vizier_bought(&mut self, seat: u8, tile: u8) -> Next {
        self.vizier.active[seat as usize] = false;
        self.vizier.asked = -1;
        self.vizier.queue.clear();
        Next::PlaceVizier(seat, tile)
    }

    /// Pay `p` from `s`'s hand into the discard pile (the office too, R-EXC-5); returns the
    /// building bought, which leaves the market.
    fn pay(&mut self, s: usize, p: &Payment) -> u8 {
        let mut cards: Stack<u8, 64> = Stack::new();
        p.cards(&mut cards);
        for &c in cards.iter() {
            self.players[s].hand.remove_first(c);
            self.discard.push(c);
        }
        if p.via != 0 {
            self.players[s].hand.remove_first(p.via);
            self.discard.push(p.via);
        }
        let i = p.space as usize - 1;
        let tile = self.market[i];
        self.market[i] = 0;
        tile
    }

    /// Carry out an action known to be legal (listed now, or a checked overpayment).
    pub fn apply_legal(&mut self, action: Action) {
        let seat = self.decider.expect("a seat decides");
        let s = seat as usize;
        let nxt = match action {
            Action::Take { cards, n } => {
                for &c in &cards[..n as usize] {
                    self.display.remove_first(c);
                    self.players[s].hand.push(c);
                }
                Next::ActionDone(false)
            }
            Action::Buy(p) => {
                let price = self.price(p.space as usize - 1);
                let tile = self.pay(s, &p);
                self.bought(tile, p.total(), price)
            }
            Action::TakeOffice { card } => {
                self.display.remove_first(card);
                self.players[s].hand.push(card);
                Next::ActionDone(false)
            }
            Action::UseVizier(p) => {
                let tile = self.pay(s, &p);
                self.vizier_bought(seat, tile)
            }
            Action::UseVizierDiamonds(p) => {
                // R-DIA-6
                let tile = self.pay_diamonds(s, &p);
                self.vizier_bought(seat, tile)
            }
            Action::BuyDiamonds(p) => {
                // R-DIA-4
                let price = self.price(p.space as usize - 1);
                let tile = self.pay_diamonds(s, &p);
                self.bought(tile, p.total(), price)
            }
            Action::RevealBonus { building } => {
                self.reveal(s, building);
                Next::Same
            }
            Action::TakeHut { hut } => {
                self.take_hut(s, hut);
                Next::ActionDone(false) // R-HUT-2: never an extra action
            }
            Action::DeclineVizier => {
                self.vizier.asked = -1;
                Next::Resume
            }
            Action::ReactivateVizier => {
                self.vizier.active[s] = true;
                Next::ActionDone(false)
            }
            Action::Build { tile, cell } => {
                let p = &mut self.players[s];
                p.city.place(tile, cell);
                p.reserve.remove_first(tile);
                Next::ActionDone(false)
            }
            Action::Remove { cell } => {
                let p = &mut self.players[s];
                let t = p.city.remove(cell);
                p.reserve.push(t);
                self.return_departed(s);
                Next::ActionDone(false)
            }
            Action::Swap { tile, cell } => {
                let p = &mut self.players[s];
                let old = p.city.swap(tile, cell);
                p.reserve.remove_first(tile);
                p.reserve.push(old);
                self.return_departed(s);
                Next::ActionDone(false)
            }
            Action::Place { tile, cell } => {
                let i = self.pending_index(tile);
                self.players[s].city.place(tile, cell);
                self.pending.remove(i);
                Next::Same
            }
            Action::Reserve { tile } => {
                let i = self.pending_index(tile);
                self.pending.remove(i);
                self.players[s].reserve.push(tile);
                Next::Same
            }
            Action::GiveToDirk { tile } => {
                let i = self.pending_index(tile);
                self.pending.remove(i);
                self.dirk.push(tile);
                Next::Same
            }
            Action::Pass => {
                if self.passes as usize + 1 >= self.n as usize {
                    Next::EndGame
                } else {
                    Next::ActionDone(false)
                }
            }
            Action::TakeGate { .. }
            | Action::PlayGate { .. }
            | Action::FinishGates
            | Action::BuildThroughGate { .. } => self.apply_gate(seat, action),
        };
        // R-GATE-5: a change of the deciding seat's own Alhambra may open the window for gates
        let nxt = if self.mods & GATES != 0 && changes_city(&action) { self.after_change(seat, nxt) } else { nxt };
        if nxt != Next::Same || (self.phase == Phase::Place && self.pending.is_empty()) {
            self.advance(nxt);
        }
        self.passes = if action == Action::Pass { self.passes + 1 } else { 0 };
    }

    fn pending_index(&self, tile: u8) -> usize {
        self.pending.iter().position(|p| p.0 == tile).expect("the tile is pending")
    }

    // -- the turn sequence (the Python engine's engine/sequence.py) ----------------------------

    fn advance(&mut self, mut nxt: Next) {
        loop {
            nxt = match nxt {
                Next::Same => {
                    if self.phase == Phase::Place && self.pending.is_empty() {
                        let then = self.place_context;
                        self.place_context = Context::None;
                        match then {
                            Context::Turn => Next::FinishTurn,
                            Context::Distribution => Next::Recipient,
                            Context::Vizier => self.after_vizier_placement(),
                            Context::None => unreachable!("a placement always has a context"),
                        }
                    } else {
                        return;
                    }
                }
                Next::ActionDone(extra) => {
                    if extra {
                        Next::Same
                    } else if !self.pending.is_empty() {
                        self.phase = Phase::Place;
                        self.decider = Some(self.turn_player);
                        self.place_context = Context::Turn;
                        Next::Same
                    } else {
                        Next::FinishTurn
                    }
                }
                Next::FinishTurn => {
                    if !self.refill_market() {
                        Next::EndGame
                    } else {
                        self.refill_display();
                        while !self.pending_scorings.is_empty() {
                            let number = self.pending_scorings.remove(0);
                            self.run_scoring(number);
                        }
                        Next::Resume
                    }
                }
                Next::PlaceVizier(seat, tile) => {
                    self.pending.push((tile, true));
                    self.phase = Phase::Place;
                    self.decider = Some(seat);
                    self.place_context = Context::Vizier;
                    Next::Same
                }
                Next::Resume => {
                    if self.mods & VIZIER != 0 {
                        if let Some(seat) = self.between_turns() {
                            self.phase = Phase::Vizier;
                            self.decider = Some(seat);
                            return;
                        }
                    }
                    if self.phase == Phase::Over || self.phase == Phase::Distribution {
                        return;
                    }
                    self.turn += 1;
                    self.start_turn((self.turn_player + 1) % self.n);
                    return;
                }
                Next::Decide(seat, phase) => {
                    self.phase = phase;
                    self.decider = Some(seat);
                    Next::Same
                }
                Next::EndGame => {
                    self.phase = Phase::Distribution;
                    self.pending_scorings.clear();
                    self.distribute();
                    Next::Recipient
                }
                Next::Recipient => {
                    let mut placing = false;
                    while !self.distribution.is_empty() {
                        let (seat, tiles) = self.distribution.remove(0);
                        if !tiles.is_empty() {
                            for &t in tiles.iter() {
                                self.pending.push((t, false));
                            }
                            self.phase = Phase::Place;
                            self.decider = Some(seat);
                            self.place_context = Context::Distribution;
                            placing = true;
                            break;
                        }
                    }
                    if placing {
                        Next::Same
                    } else {
                        self.run_scoring(3);
                        self.phase = Phase::Over;
                        self.decider = None;
                        return;
                    }
                }
            };
        }
    }

    /// R-VIZ-2, R-VIZ-5: after a finished turn, the seats with an active vizier are asked in
    /// priority order (the player who just finished first, the next turn's player last); a
    /// seat is asked only if it can pay some market building exactly (ruling). `None` once
    /// nobody is left to ask (R-VIZ-3).
    fn between_turns(&mut self) -> Option<u8> {
        let n = self.n;
        if self.vizier.round_over || self.phase == Phase::Over || self.phase == Phase::Distribution {
            return None;
        }
        let finished = self.turn_player;
        let mut order: Stack<u8, 8> = Stack::new();
        for k in 0..n {
            order.push((finished + n - k) % n);
        }
        let candidates = if !self.vizier.started {
            self.vizier.started = true;
            if self.vizier.active[..n as usize].contains(&true) {
                order
            } else {
                Stack::new()
            }
        } else {
            self.vizier.queue
        };
        for (k, &seat) in candidates.iter().enumerate() {
            if self.vizier.active[seat as usize] && self.can_pay_exactly(seat as usize) {
                self.vizier.queue = Stack::from_slice(&candidates.as_slice()[k + 1..]);
                self.vizier.asked = seat as i8;
                return Some(seat);
            }
        }
        self.vizier.queue.clear();
        self.vizier.asked = -1;
        self.vizier.round_over = true;
        None
    }

    /// R-VIZ-3: after a vizier purchase is placed, refill the market (the game ends when the
    /// bag cannot, R-END-1), then everyone may decide again from the top of the order.
    fn after_vizier_placement(&mut self) -> Next {
        if !self.refill_market() {
            self.vizier.queue.clear();
            self.vizier.asked = -1;
            self.vizier.round_over = true;
            return Next::EndGame;
        }
        let (n, finished) = (self.n, self.turn_player);
        self.vizier.queue.clear();
        for k in 0..n {
            self.vizier.queue.push((finished + n - k) % n);
        }
        Next::Resume
    }

    /// R-TURN-8: fill empty market spaces from the bag, lowest first; false if the bag ran out
    /// (R-END-1).
    fn refill_market(&mut self) -> bool {
        for i in 0..4 {
            if self.market[i] == 0 {
                if !self.bag.is_empty() {
                    draws::before_draw(self, draws::BAG);
                }
                match self.bag.pop() {
                    Some(t) => self.market[i] = t,
                    None => return false,
                }
            }
        }
        true
    }

    /// R-TURN-8: the top card of the deck; an empty deck takes the discard pile, shuffled.
    fn draw_money(&mut self) -> Option<u8> {
        if self.deck.is_empty() {
            if self.discard.is_empty() {
                return None;
            }
            self.deck = self.discard;
            self.discard.clear();
            self.rng.shuffle(self.deck.as_mut_slice());
            self.pile_sizes.clear();
            self.pile_sizes.push(self.deck.len() as u8);
        }
        draws::before_draw(self, draws::DECK);
        self.deck.pop()
    }

    /// R-TURN-8, R-SCORE-1: refill the money display to four; a scoring card drawn is set
    /// aside and its scoring held at the end of the turn.
    fn refill_display(&mut self) {
        while self.display.len() < DISPLAY_SIZE {
            let Some(card) = self.draw_money() else {
                return;
            };
            if card == SCORING_A || card == SCORING_B {
                self.scoring_cards.push(card);
                self.pending_scorings.push(if card == SCORING_A { 1 } else { 2 });
            } else if is_gate(card) {
                self.gate_drawn(card); // R-GATE-3
            } else {
                self.display.push(card);
            }
        }
    }

    /// One scoring (R-SCORE-1 … R-SCORE-5; Dirk takes part with two players, R-TWO-4), its
    /// totals added to the scores; then Dirk's draw (R-TWO-3).
    fn run_scoring(&mut self, number: u8) {
        let n = self.n as usize;
        let mut rec = Scoring { number, participants: self.n + self.has_dirk() as u8, ..Default::default() };
        for p in 0..n {
            rec.counts[p] = self.players[p].city.type_counts();
            rec.walls[p] = self.players[p].city.longest_outer_wall();
        }
        if self.has_dirk() {
            let mut mine = [0u8; TYPES];
            for &t in self.dirk.iter() {
                if (1..=54).contains(&t) {
                    mine[TILE_TYPE[t as usize] as usize] += 1;
                }
            }
            rec.counts[n] = mine;
        }
        if self.mods & BONUS != 0 {
            self.bonus_counts(&mut rec);
        }
        if self.mods & BUILDING_HUTS != 0 {
            self.hut_counts(&mut rec); // R-HUT-5
        }
        let parts = rec.participants as usize;
        for t in 0..TYPES {
            let counts: Stack<u8, 7> = Stack::from_slice(&(0..parts).map(|i| rec.counts[i][t]).collect::<Vec<_>>());
            let mut pts = [0i32; 7];
            majority_points(counts.as_slice(), SCORING[t][number as usize - 1], &mut pts[..parts]);
            for i in 0..parts {
                rec.majority[i][t] = pts[i];
            }
        }
        for p in 0..n {
            self.players[p].score += rec.total(p);
        }
        self.scorings.push(rec);
        if self.has_dirk() {
            self.dirk_score += rec.total(n);
            let take = match number {
                1 => 6usize.min(self.bag.len()),
                2 => (self.bag.len() / 3).min(6),
                _ => 0,
            };
            for _ in 0..take {
                draws::before_draw(self, draws::BAG);
                let t = self.bag.pop().unwrap();
                self.dirk.push(t);
            }
        }
    }

    /// R-BON-5: at a scoring every eligible bonus card is revealed (after R-BON-4), the
    /// wall-less buildings standing without their card shown are recorded as not held, and
    /// each revealed card counts one more building of its type (R-BON-3).
    fn bonus_counts(&mut self, rec: &mut Scoring) {
        for p in 0..self.n as usize {
            self.return_departed(p);
            for (k, &b) in BONUS_CARDS.iter().enumerate() {
                if self.bonus.hands[p] >> k & 1 == 1 && self.players[p].city.has_tile(b) {
                    self.reveal(p, b);
                }
            }
            if self.bonus.has_not_held {
                for (k, &b) in BONUS_CARDS.iter().enumerate() {
                    if self.bonus.revealed[p] >> k & 1 == 0 && self.players[p].city.has_tile(b) {
                        self.bonus.not_held[p] |= 1 << k;
                    }
                }
            }
            for (k, &b) in BONUS_CARDS.iter().enumerate() {
                if self.bonus.revealed[p] >> k & 1 == 1 {
                    rec.counts[p][TILE_TYPE[b as usize] as usize] += 1;
                }
            }
        }
    }

    /// R-END-2: each building left on the market goes to whoever holds the most money of its
    /// space's currency, none on a tie; the recipients place in seat order from the player
    /// after the one who played the last turn.
    fn distribute(&mut self) {
        let n = self.n as usize;
        let mut received: [Stack<u8, 4>; MAX_PLAYERS] = [Stack::new(); MAX_PLAYERS];
        for i in 0..4 {
            let tile = self.market[i];
            if tile == 0 {
                continue;
            }
            self.market[i] = 0;
            let totals: Vec<u32> = (0..n)
                .map(|p| {
                    self.players[p]
                        .hand
                        .iter()
                        .filter(|&&c| is_money(c) && currency(c) == i as u8)
                        .map(|&c| value(c) as u32)
                        .sum()
                })
                .collect();
            let best = *totals.iter().max().unwrap();
            if totals.iter().filter(|&&t| t == best).count() == 1 {
                let seat = totals.iter().position(|&t| t == best).unwrap();
                received[seat].push(tile);
            } else {
                self.out_of_play.push(tile);
            }
        }
        self.distribution.clear();
        for k in 0..n {
            let s = (self.turn_player as usize + 1 + k) % n;
            if !received[s].is_empty() {
                self.distribution.push((s as u8, received[s]));
            }
        }
    }

    /// R-END-4: the seats with the most points (with `tiebreak = "money"`, the most money
    /// left among them); empty while the game runs.
    pub fn winners(&self) -> Vec<u8> {
        if !self.is_over() {
            return Vec::new();
        }
        let n = self.n as usize;
        let best = (0..n).map(|p| self.players[p].score).max().unwrap();
        let mut tied: Vec<u8> = (0..n).filter(|&p| self.players[p].score == best).map(|p| p as u8).collect();
        if self.opts.tiebreak_money && tied.len() > 1 {
            // the money cards only (diamonds are no money of the tie-break, as in the Python engine)
            let money = |p: u8| {
                self.players[p as usize].hand.iter().filter(|&&c| is_money(c)).map(|&c| value(c) as u32).sum::<u32>()
            };
            let most = tied.iter().map(|&p| money(p)).max().unwrap();
            tied.retain(|&p| money(p) == most);
        }
        tied
    }

    /// Each seat's share of the victory (1/k for a k-way tie), all zeros while the game runs.
    pub fn returns(&self) -> Vec<f64> {
        let w = self.winners();
        (0..self.n).map(|p| if w.contains(&p) { 1.0 / w.len() as f64 } else { 0.0 }).collect()
    }

    /// A cell from a position, for decoding callers' actions.
    pub fn cell(x: i32, y: i32) -> Option<Cell> {
        cell_of(x, y)
    }
}

/// The Python engine's `minimal_payments` search over `kinds` (value, currency), ordered by
/// value high to low then currency name: each payment a multiset whose smallest card is needed
/// (R-TURN-3), exact ones only with `exact` (R-TURN-4). With `wide` (a payment through an
/// office, R-EXC-4), only payments holding a card of the office's other currency are kept.
struct Search<'a> {
    kinds: &'a Stack<(u8, u8), 18>,
    /// `reach[j]`: what the kinds from `j` on pay, every card in hand
    reach: &'a [u16; 19],
    price: u8,
    exact: bool,
    wide: bool,
}

impl Search<'_> {
    /// The payments that add cards of kinds `start..` (those of `start` as `avail` says) to
    /// `chosen`, worth `total`, in the Python engine's order. Kinds after `start` are all in
    /// hand still, so once `total` and all of them cannot reach the price, no later kind can.
    fn extend(&self, avail: &mut [u8; 18], chosen: &mut Payment, start: usize, total: u8, out: &mut Vec<Action>) {
        let own = chosen.space - 1;
        for j in start..self.kinds.len() {
            let (v, c) = self.kinds[j];
            if (total as u16) + (v as u16) * (avail[j] as u16) + self.reach[j + 1] < self.price as u16 {
                break;
            }
            if avail[j] == 0 {
                continue;
            }
            let lane = usize::from(c != own);
            let new = total + v;
            chosen.counts[lane][v as usize - 1] += 1;
            if new >= self.price {
                let other = chosen.counts[1].iter().any(|&k| k > 0);
                if (!self.exact || new == self.price) && (!self.wide || other) {
                    out.push(Action::Buy(*chosen));
                }
            } else {
                avail[j] -= 1;
                self.extend(avail, chosen, j, new, out);
                avail[j] += 1;
            }
            chosen.counts[lane][v as usize - 1] -= 1;
        }
    }
}

/// The module's `minimal_diamond_payments` for one space: the choices of values (`counts` per
/// value, from `start` on, at most `have`) whose total covers `price` and whose smallest card
/// is needed (exact totals only with `exact`), each as the first copies in hand (`copies`: per
/// value, the copies held as bits). Once a choice covers the price, adding a card (never
/// smaller than the first) leaves the first card unneeded, so the search stops there.
#[allow(clippy::too_many_arguments)]
fn diamond_payments(
    have: &[u8; 9],
    copies: &[u8; 9],
    price: u32,
    exact: bool,
    space: u8,
    counts: &mut [u8; 9],
    start: usize,
    total: u32,
    smallest: u32,
    out: &mut Vec<Action>,
) {
    for v in start..9 {
        if counts[v] >= have[v] {
            continue;
        }
        counts[v] += 1;
        let val = v as u32 + 1;
        let new = total + val;
        let first = if total == 0 { val } else { smallest };
        if new >= price {
            if new - first < price && (!exact || new == price) {
                let mut mask = 0u64;
                for (w, &k) in counts.iter().enumerate() {
                    let mut bits = copies[w];
                    for _ in 0..k {
                        let low = bits.trailing_zeros() as u64;
                        bits &= bits - 1;
                        mask |= 1 << (w as u64 * DIAMOND_COPIES as u64 + low);
                    }
                }
                out.push(Action::BuyDiamonds(DiamondPay { space, mask }));
            }
        } else {
            diamond_payments(have, copies, price, exact, space, counts, v, new, first, out);
        }
        counts[v] -= 1;
    }
}

/// The order of `minimal_diamond_payments`: by total, then by the values in increasing order.
fn diamond_key(p: &DiamondPay) -> (u32, [u8; MAX_DIAMONDS]) {
    let mut values = [0u8; MAX_DIAMONDS];
    for (k, c) in p.cards().take(MAX_DIAMONDS).enumerate() {
        values[k] = value(c);
    }
    (p.total(), values)
}

/// A state to load (`Game::load`): everything a save's state holds, in the kernel's terms.
pub struct Loaded {
    pub n: usize,
    pub opts: Options,
    pub hands: Vec<Vec<u8>>,
    pub cities: Vec<Vec<(i32, i32, u8)>>,
    pub reserves: Vec<Vec<u8>>,
    pub scores: Vec<i32>,
    pub bag: Vec<u8>,
    pub market: [u8; 4],
    pub deck: Vec<u8>,
    pub discard: Vec<u8>,
    pub display: Vec<u8>,
    pub start_player: u8,
    pub turn_player: u8,
    pub decider: Option<u8>,
    pub phase: Phase,
    pub turn: u32,
    pub pending: Vec<(u8, bool)>,
    pub place_context: Context,
    pub pending_scorings: Vec<u8>,
    pub scoring_cards: Vec<u8>,
    pub scorings: Vec<Scoring>,
    pub distribution: Vec<(u8, Vec<u8>)>,
    pub out_of_play: Vec<u8>,
    pub pile_sizes: Vec<u8>,
    pub dirk: Vec<u8>,
    pub dirk_score: i32,
    pub passes: u8,
    pub rng: Mt,
    pub mods: u8,
    pub vizier: VizierState,
    pub bonus: BonusState,
    pub gates: GatesState,
    /// per seat, the gates of its Alhambra in the order they were played, each as
    /// `(x, y, EAST | SOUTH)` of the tile west or north of it
    pub city_gates: Vec<Vec<(i32, i32, u8)>>,
    /// the hut stacks by colour, bottom first (with the building huts)
    pub hut_stacks: Vec<Vec<u8>>,
}

fn fits<T>(what: &str, items: &[T], cap: usize) -> Result<(), Illegal> {
    if items.len() > cap {
        Err(Illegal(format!("{what}: {} items, more than any game holds ({cap})", items.len())))
    } else {
        Ok(())
    }
}

impl Game {
    /// A game in the state `l` (a state the Python engine has validated); `Err` names a part
    /// the kernel cannot hold.
    pub fn load(l: &Loaded) -> Result<Game, Illegal> {
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&l.n) {
            return Err(Illegal(format!("{} players: Alhambra is for 2 to 6", l.n)));
        }
        if l.mods & !KERNEL_MODULES != 0 {
            return Err(Illegal("a module the kernel does not play".into()));
        }
        let mut g = Game::with_modules(l.n, 0, l.opts, l.mods);
        for p in 0..l.n {
            fits("hand", &l.hands[p], MAX_CARDS)?;
            fits("reserve", &l.reserves[p], 64)?;
            fits("city", &l.cities[p], crate::city::MAX_TILES)?;
            let pl = &mut g.players[p];
            pl.hand = Stack::from_slice(&l.hands[p]);
            pl.reserve = Stack::from_slice(&l.reserves[p]);
            pl.score = l.scores[p];
            pl.city = City::with_huts(l.opts.holes, l.opts.huts.walls);
            for &(x, y, t) in &l.cities[p] {
                if (x, y) == (0, 0) {
                    continue;
                }
                let c = cell_of(x, y).ok_or_else(|| Illegal(format!("position ({x}, {y}) lies too far out")))?;
                if pl.city.tile_at(c).is_some() {
                    return Err(Illegal(format!("two tiles at ({x}, {y})")));
                }
                pl.city.place(t, c);
            }
            for &(x, y, side) in l.city_gates.get(p).map_or(&[][..], |v| v.as_slice()) {
                let (a, b) = match (side, cell_of(x, y), cell_of(x + 1, y), cell_of(x, y + 1)) {
                    (EAST, Some(a), Some(b), _) | (SOUTH, Some(a), _, Some(b)) => (a, b),
                    _ => {
                        return Err(Illegal(format!(
                            "a gate is [x, y, east|south] within the grid, not ({x}, {y}, {side})"
                        )))
                    }
                };
                if pl.city.tile_at(a).is_none() || pl.city.tile_at(b).is_none() || pl.city.gates().contains(&(a, side))
                {
                    return Err(Illegal(format!(
                        "the gate ({x}, {y}, {side}) lies on no side between two tiles, once"
                    )));
                }
                if !pl.city.open_side(a, side) {
                    return Err(Illegal(format!("more gates in one Alhambra than gate cards ({})", GATE_CARDS)));
                }
            }
        }
        fits("bag", &l.bag, 54)?;
        fits("deck", &l.deck, MAX_CARDS)?;
        fits("discard", &l.discard, MAX_CARDS)?;
        fits("display", &l.display, 8)?;
        fits("pending", &l.pending, 16)?;
        fits("pending scorings", &l.pending_scorings, 4)?;
        fits("scoring cards", &l.scoring_cards, 2)?;
        fits("scorings", &l.scorings, 3)?;
        fits("distribution", &l.distribution, 6)?;
        fits("out of play", &l.out_of_play, 4)?;
        fits("pile sizes", &l.pile_sizes, 8)?;
        fits("dirk", &l.dirk, 54)?;
        g.bag = Stack::from_slice(&l.bag);
        g.market = l.market;
        g.deck = Stack::from_slice(&l.deck);
        g.discard = Stack::from_slice(&l.discard);
        g.display = Stack::from_slice(&l.display);
        g.start_player = l.start_player;
        g.turn_player = l.turn_player;
        g.decider = l.decider;
        g.phase = l.phase;
        g.turn = l.turn;
        g.pending = Stack::from_slice(&l.pending);
        g.place_context = l.place_context;
        g.pending_scorings = Stack::from_slice(&l.pending_scorings);
        g.scoring_cards = Stack::from_slice(&l.scoring_cards);
        g.scorings = Stack::from_slice(&l.scorings);
        g.distribution.clear();
        for (s, tiles) in &l.distribution {
            fits("distribution", tiles, 4)?;
            g.distribution.push((*s, Stack::from_slice(tiles)));
        }
        g.out_of_play = Stack::from_slice(&l.out_of_play);
        g.pile_sizes = Stack::from_slice(&l.pile_sizes);
        g.dirk = Stack::from_slice(&l.dirk);
        g.dirk_score = l.dirk_score;
        g.passes = l.passes;
        g.rng = l.rng;
        g.vizier = l.vizier;
        g.bonus = l.bonus;
        g.gates = l.gates;
        if l.mods & BUILDING_HUTS != 0 {
            g.load_huts(&l.hut_stacks)?;
            g.count_huts();
        }
        Ok(g)
    }
}
