//! The components (COMPONENTS.md; the Python engine's `engine/data/components.toml`), as
//! constants: tiles, money cards, the market and the scoring table. A test of the bindings
//! compares them with the Python engine's catalogue.

/// Tile id of the Lion Fountain (R-COMP-1); buildings are 1-54 (R-COMP-2).
pub const FOUNTAIN: u8 = 0;
pub const BUILDINGS: usize = 54;

/// Wall bits of a tile side (north, east, south, west).
pub const NORTH: u8 = 1;
pub const EAST: u8 = 2;
pub const SOUTH: u8 = 4;
pub const WEST: u8 = 8;

/// Building type per tile id (0 pavilion … 5 tower, R-COMP-2; 255 for the fountain).
pub const TILE_TYPE: [u8; 55] = [
    255, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4,
    4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
];
/// Printed price per tile id (R-COMP-2).
pub const TILE_PRICE: [u8; 55] = [
    0, 2, 3, 4, 5, 6, 7, 8, 3, 4, 5, 6, 7, 8, 9, 4, 5, 6, 6, 7, 8, 8, 9, 10, 5, 6, 7, 7, 8, 9, 9, 10, 11, 6, 7, 8, 8,
    8, 9, 10, 10, 10, 11, 12, 7, 8, 9, 9, 9, 10, 11, 11, 11, 12, 13,
];
/// Wall mask per tile id (R-COMP-2).
pub const TILE_WALLS: [u8; 55] = [
    0, 11, 12, 6, 9, 1, 2, 0, 14, 3, 12, 6, 8, 4, 0, 7, 9, 3, 12, 6, 1, 2, 0, 0, 13, 6, 3, 12, 9, 4, 8, 0, 0, 14, 13,
    3, 12, 9, 2, 1, 8, 0, 0, 4, 11, 7, 3, 6, 9, 8, 1, 4, 0, 0, 2,
];

/// The six building types, in scoring order (R-COMP-2, R-SCORE-2).
pub const TYPES: usize = 6;
pub const TYPE_NAMES: [&str; TYPES] = ["pavilion", "seraglio", "arcades", "chambers", "garden", "tower"];

/// Points for 1st/2nd/3rd place per type and scoring (R-SCORE-2): `SCORING[type][number-1]`.
pub const SCORING: [[&[i32]; 3]; TYPES] = [
    [&[1], &[8, 1], &[16, 8, 1]],
    [&[2], &[9, 2], &[17, 9, 2]],
    [&[3], &[10, 3], &[18, 10, 3]],
    [&[4], &[11, 4], &[19, 11, 4]],
    [&[5], &[12, 5], &[20, 12, 5]],
    [&[6], &[13, 6], &[21, 13, 6]],
];

/// The four currencies (R-COMP-3), in the engine's order; market space i (0-3) takes
/// currency i (R-COMP-4).
pub const CURRENCIES: [&str; 4] = ["florin", "dirham", "dinar", "ducat"];

// Cards: money card `currency * 9 + value - 1` (0-35), then the scoring cards, then the six
// exchange offices (R-EXC-1), one per pair of currencies in CURRENCIES order, then the diamonds
// (R-DIA-1): `DIAMOND_FIRST + (value - 1) * DIAMOND_COPIES + copy - 1`, copies 1-6 of each
// value 1-9 (`diamond-5a` is value 5, copy 1), then the six gate cards (R-GATE-1).
pub const SCORING_A: u8 = 36;
pub const SCORING_B: u8 = 37;
pub const OFFICE_FIRST: u8 = 38;
pub const OFFICE_PAIRS: [(u8, u8); 6] = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];
pub const DIAMOND_FIRST: u8 = 44;
/// The copies of one diamond value the kernel tells apart (the Python module allows 26; a
/// `diamonds.values` with more of one value is not played by the kernel).
pub const DIAMOND_COPIES: u8 = 6;
pub const CARD_KINDS: usize = DIAMOND_FIRST as usize + 9 * DIAMOND_COPIES as usize;
/// The six gate cards of the city gates (R-GATE-1), after the diamonds: `GATE_FIRST + number - 1`
/// (`gate-1` … `gate-6`); no currency, no value.
pub const GATE_FIRST: u8 = CARD_KINDS as u8;
pub const GATE_CARDS: u8 = 6;

/// The gate card numbered `number` (1-6) (R-GATE-1).
#[inline]
pub const fn gate(number: u8) -> u8 {
    GATE_FIRST + number - 1
}

/// True for a gate card (R-GATE-1).
#[inline]
pub const fn is_gate(card: u8) -> bool {
    card >= GATE_FIRST && card < GATE_FIRST + GATE_CARDS
}

/// The diamond card of `value` (1-9) and `copy` (1-6) (R-DIA-1).
#[inline]
pub const fn diamond(value: u8, copy: u8) -> u8 {
    DIAMOND_FIRST + (value - 1) * DIAMOND_COPIES + copy - 1
}

/// True for a diamond card (R-DIA-1).
#[inline]
pub const fn is_diamond(card: u8) -> bool {
    card >= DIAMOND_FIRST && (card as usize) < CARD_KINDS
}

/// A diamond's copy number (1-6).
#[inline]
pub const fn diamond_copy(card: u8) -> u8 {
    (card - DIAMOND_FIRST) % DIAMOND_COPIES + 1
}

/// True for a card taken as money (R-TURN-2): the money cards and the diamonds (R-DIA-3).
#[inline]
pub const fn is_cash(card: u8) -> bool {
    is_money(card) || is_diamond(card)
}

/// The ten bonus cards (R-BON-1), each named by the wall-less building it pictures, sorted: a
/// seat's bonus cards are a bit set over this list.
pub const BONUS_CARDS: [u8; 10] = [7, 14, 22, 23, 31, 32, 41, 42, 52, 53];

/// R-BON-2: the bonus cards dealt to each player, by number of players.
pub const fn bonus_deal(players: usize) -> usize {
    match players {
        2 | 3 => 3,
        4 | 5 => 2,
        _ => 1,
    }
}

/// True for an exchange office card.
#[inline]
pub const fn is_office(card: u8) -> bool {
    card >= OFFICE_FIRST && card < OFFICE_FIRST + 6
}

/// The two currencies of an exchange office card.
#[inline]
pub const fn office_pair(card: u8) -> (u8, u8) {
    OFFICE_PAIRS[(card - OFFICE_FIRST) as usize]
}

#[inline]
pub const fn money(currency: u8, value: u8) -> u8 {
    currency * 9 + value - 1
}

#[inline]
pub const fn is_money(card: u8) -> bool {
    card < 36
}

#[inline]
pub const fn currency(card: u8) -> u8 {
    card / 9
}

/// The value of a money card or a diamond (0 for any other card).
#[inline]
pub const fn value(card: u8) -> u8 {
    if card < 36 {
        card % 9 + 1
    } else if is_diamond(card) {
        (card - DIAMOND_FIRST) / DIAMOND_COPIES + 1
    } else {
        0
    }
}

/// The order of cards inside an action (the Python engine's `canonical_cards`: currency name,
/// then value, then code): diamond, dinar, dirham, ducat, florin.
#[inline]
pub const fn canonical_rank(card: u8) -> u16 {
    if card < 36 {
        const ALPHA: [u16; 4] = [3, 1, 0, 2];
        64 + ALPHA[(card / 9) as usize] * 9 + (card % 9) as u16
    } else if is_diamond(card) {
        (card - DIAMOND_FIRST) as u16
    } else {
        256 + card as u16
    }
}

/// A card's code as the saves write it (`florin-3`, `scoring-A`).
pub fn card_code(card: u8) -> String {
    match card {
        SCORING_A => "scoring-A".to_string(),
        SCORING_B => "scoring-B".to_string(),
        c if c < 36 => format!("{}-{}", CURRENCIES[currency(c) as usize], value(c)),
        c if is_office(c) => {
            let (a, b) = office_pair(c);
            format!("office-{}-{}", CURRENCIES[a as usize], CURRENCIES[b as usize])
        }
        c if is_diamond(c) => format!("diamond-{}{}", value(c), (b'a' + diamond_copy(c) - 1) as char),
        c if is_gate(c) => format!("gate-{}", c - GATE_FIRST + 1),
        c => format!("card-{c}"),
    }
}

/// The card of a save's code, or `None`.
pub fn card_of_code(code: &str) -> Option<u8> {
    match code {
        "scoring-A" => return Some(SCORING_A),
        "scoring-B" => return Some(SCORING_B),
        _ => {}
    }
    if let Some(pair) = code.strip_prefix("office-") {
        let (a, b) = pair.split_once('-')?;
        let a = CURRENCIES.iter().position(|&x| x == a)? as u8;
        let b = CURRENCIES.iter().position(|&x| x == b)? as u8;
        return OFFICE_PAIRS.iter().position(|&p| p == (a, b)).map(|k| OFFICE_FIRST + k as u8);
    }
    if let Some(rest) = code.strip_prefix("gate-") {
        let b = rest.as_bytes();
        if b.len() != 1 || !(b'1'..b'1' + GATE_CARDS).contains(&b[0]) {
            return None;
        }
        return Some(gate(b[0] - b'0'));
    }
    if let Some(rest) = code.strip_prefix("diamond-") {
        let b = rest.as_bytes();
        if b.len() != 2 || !(b'1'..=b'9').contains(&b[0]) || !(b'a'..b'a' + DIAMOND_COPIES).contains(&b[1]) {
            return None;
        }
        return Some(diamond(b[0] - b'0', b[1] - b'a' + 1));
    }
    let (cur, val) = code.split_once('-')?;
    let c = CURRENCIES.iter().position(|&x| x == cur)? as u8;
    let v: u8 = val.parse().ok()?;
    if (1..=9).contains(&v) && val.len() == 1 {
        Some(money(c, v))
    } else {
        None
    }
}
