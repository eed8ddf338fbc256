//! The Python bindings of the rules kernel (`alhambra_kernel`): a thin layer over the
//! `alhambra-kernel` crate. `alhambra` imports it when it is installed and wraps it in its
//! own `Game` API (`alhambra.game.KernelGame`); nothing here is meant to be used directly.
//!
//! Actions cross as integers (`Action::code`), states as the save's JSON text out and as the
//! save's plain data in. A panic inside the kernel is caught at this boundary and raised as
//! `alhambra.errors.KernelError` (an `AlhambraError`), never as a crash.

use kernel::city::Holes;
use kernel::city::{cell_of, xy};
use kernel::data::{
    card_code, card_of_code, currency, is_diamond, is_gate, is_money, is_office, office_pair, value, BONUS_CARDS, EAST,
    GATE_CARDS, NORTH, SOUTH, TYPE_NAMES, WEST,
};
use kernel::game::{
    bonus_bit, Action, BonusState, Context, DiamondPay, Game, Loaded, Options, Payment, Phase, Scoring, VizierState,
    BUILDING_HUTS, GATES, KERNEL_MODULES,
};
use kernel::gates::{After, GatesState, Window};
use kernel::greedy::{self, Memo, Weights};
use kernel::huts::{hut_of_name, is_hut, HutLayout, HUT_FIRST};
use kernel::rng::Mt;
use kernel::stack::Stack;
use kernel::tally::Tally;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use std::panic::{catch_unwind, AssertUnwindSafe};

mod batch;
mod env;
mod search;
mod spiel;

/// Run `f`, turning a panic into `alhambra.errors.KernelError`.
fn guard<T>(py: Python<'_>, f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => {
            let msg = if let Some(s) = payload.downcast_ref::<&str>() {
                s.to_string()
            } else if let Some(s) = payload.downcast_ref::<String>() {
                s.clone()
            } else {
                "unknown panic".to_string()
            };
            Err(kernel_error(py, format!("the rules kernel failed: {msg}")))
        }
    }
}

/// The exception `alhambra.errors.<name>` with `msg`, or `fallback(msg)` where the package's
/// errors cannot be imported.
fn alhambra_error(py: Python<'_>, name: &str, msg: String, fallback: fn(String) -> PyErr) -> PyErr {
    match py.import("alhambra.errors").and_then(|m| m.getattr(name)) {
        Ok(cls) => match cls.call1((msg.clone(),)) {
            Ok(exc) => PyErr::from_value(exc),
            Err(_) => fallback(msg),
        },
        Err(_) => fallback(msg),
    }
}

/// `alhambra.errors.KernelError`: the kernel failed (a panic caught at the binding).
fn kernel_error(py: Python<'_>, msg: String) -> PyErr {
    alhambra_error(py, "KernelError", msg, PyRuntimeError::new_err)
}

/// `alhambra.errors.ConfigError` (an `AlhambraError` and a `ValueError`).
fn config_error(py: Python<'_>, msg: String) -> PyErr {
    alhambra_error(py, "ConfigError", msg, PyValueError::new_err)
}

/// A hut layout as the bridge gives it: per hut (in the rule set's catalogue order) its id, its
/// building type (0 pavilion … 5 tower) and its wall mask.
type Huts = Option<Vec<(String, u8, u8)>>;

/// The options, and the huts' ids (empty: the shipped layout's).
fn options(
    holes: &str,
    tiebreak: &str,
    start_player: &str,
    diamonds: Option<Vec<u8>>,
    huts: Huts,
    gates: Option<u8>,
) -> PyResult<(Options, Vec<String>)> {
    let holes = match holes {
        "cell" => Holes::Cell,
        "region" => Holes::Region,
        other => return Err(PyValueError::new_err(format!("holes: {other:?}"))),
    };
    let tiebreak_money = match tiebreak {
        "shared" => false,
        "money" => true,
        other => return Err(PyValueError::new_err(format!("tiebreak: {other:?}"))),
    };
    let start_random = match start_player {
        "seat" => false,
        "random" => true,
        other => return Err(PyValueError::new_err(format!("start_player: {other:?}"))),
    };
    let mut opts = Options { holes, tiebreak_money, start_random, ..Default::default() };
    if let Some(values) = diamonds {
        if let Some(why) = Options::diamond_values_refusal(&values) {
            return Err(PyValueError::new_err(format!("diamonds.values: {why}")));
        }
        opts.diamonds = Stack::from_slice(&values);
    }
    if let Some(k) = gates {
        if !(1..=GATE_CARDS).contains(&k) {
            return Err(PyValueError::new_err(format!(
                "city_gates.cards: 1-{GATE_CARDS} gate cards (R-GATE-1), not {k}"
            )));
        }
        opts.gate_cards = k;
    }
    let mut names = Vec::new();
    if let Some(huts) = huts {
        let specs: Vec<(u8, u8)> = huts.iter().map(|&(_, t, w)| (t, w)).collect();
        opts.huts =
            HutLayout::of(&specs).map_err(|e| PyValueError::new_err(format!("building_huts.layout: {}", e.0)))?;
        names = huts.into_iter().map(|(id, _, _)| id).collect();
        for (k, id) in names.iter().enumerate() {
            if names[..k].contains(id) {
                return Err(PyValueError::new_err(format!("building_huts.layout: hut {id:?} appears twice")));
            }
        }
    }
    Ok((opts, names))
}

/// A random player's generator: `random.Random(seed)` of a seed, or a state as bytes.
#[derive(FromPyObject)]
enum Generator {
    Seed(u64),
    State(Vec<u8>),
}

/// A generator of its state as bytes (624 words and the index, native byte order) or a seed.
fn generator(py: Python<'_>, gen: &Generator) -> PyResult<Mt> {
    let mt = match gen {
        Generator::Seed(seed) => Some(Mt::from_seed(*seed)),
        Generator::State(bytes) if bytes.len() == 625 * 4 => {
            let words: Vec<u32> = bytes.chunks_exact(4).map(|w| u32::from_ne_bytes([w[0], w[1], w[2], w[3]])).collect();
            Mt::from_state(&words[..624], words[624])
        }
        Generator::State(_) => None,
    };
    mt.ok_or_else(|| config_error(py, "bad generator state (624 words and the index, as bytes)".into()))
}

/// A seat of `play_bots`: a greedy bot `(weights, noise, generator)` or a random bot's generator.
#[derive(FromPyObject)]
enum SeatSpec {
    Greedy((Vec<f64>, f64, Generator)),
    Random(Generator),
}

/// A player inside the kernel.
enum Player {
    Random(Mt),
    Greedy(Weights, f64, Mt),
}

/// A game on the kernel.
#[pyclass(module = "alhambra_kernel")]
struct KernelGame {
    g: Box<Game>,
    legal: Vec<Action>,
    /// `legal` is the list of the current state
    listed: bool,
    /// the huts' ids, in the layout's order (empty: the shipped layout's `H1` … `H24`)
    hut_names: Vec<String>,
}

impl KernelGame {
    fn wrap(g: Game, hut_names: Vec<String>) -> KernelGame {
        KernelGame { g: Box::new(g), legal: Vec::with_capacity(256), listed: false, hut_names }
    }

    fn ensure_legal(&mut self) {
        if !self.listed {
            self.g.legal(&mut self.legal);
            self.listed = true;
        }
    }
}

#[pymethods]
impl KernelGame {
    /// A new game of `players` seats from `seed`, as `alhambra.new_game` sets it up; `mods`:
    /// the enabled modules as bits (vizier 1, building huts 2, bonus cards 4, exchange offices
    /// 8, city gates 16, diamonds 32), those the kernel plays; `diamonds`: the option
    /// `diamonds.values` (default: the module's ten values); `huts`: the hut layout (R-HUT-1),
    /// `(id, type 0-5, wall mask)` per hut in the rule set's catalogue order (default: the
    /// shipped layout); `gates`: the option `city_gates.cards` (default: one per player, two
    /// with two players).
    #[new]
    #[pyo3(signature = (players, seed, holes="cell", tiebreak="shared", start_player="seat", mods=0, diamonds=None, huts=None, gates=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        players: usize,
        seed: u64,
        holes: &str,
        tiebreak: &str,
        start_player: &str,
        mods: u8,
        diamonds: Option<Vec<u8>>,
        huts: Huts,
        gates: Option<u8>,
    ) -> PyResult<Self> {
        let (opts, names) = options(holes, tiebreak, start_player, diamonds, huts, gates)?;
        if !(2..=6).contains(&players) {
            return Err(PyValueError::new_err(format!("{players} players: Alhambra is for 2 to 6")));
        }
        if mods & !KERNEL_MODULES != 0 {
            return Err(PyValueError::new_err(format!("modules {mods:#b}: the kernel plays {KERNEL_MODULES:#b}")));
        }
        guard(py, || Ok(KernelGame::wrap(Game::with_modules(players, seed, opts, mods), names)))
    }

    /// The action of `code` as the save writes an action (`{"type": ..., fields}`), the huts
    /// named by `huts` (their ids in the layout's order; default: the shipped ids).
    #[staticmethod]
    #[pyo3(signature = (code, huts=None))]
    fn action_data<'py>(py: Python<'py>, code: u64, huts: Option<Vec<String>>) -> PyResult<Bound<'py, PyDict>> {
        let a =
            Action::from_code(code).ok_or_else(|| PyValueError::new_err(format!("no action has the code {code}")))?;
        action_data(py, &a, huts.as_deref().unwrap_or(&[]))
    }

    /// The code of an action given as the save writes it, or `None` for one the kernel has no
    /// code for; `huts`: the huts' ids in the layout's order (`None`: a game without huts).
    #[staticmethod]
    #[pyo3(signature = (data, huts=None))]
    fn code_of_data(data: &Bound<'_, PyDict>, huts: Option<Vec<String>>) -> Option<u64> {
        code_of_data(data, huts.as_deref()).map(|a| a.code())
    }

    /// The codes of the legal actions, in the Python engine's order.
    fn legal(&mut self, py: Python<'_>) -> PyResult<Vec<u64>> {
        guard(py, || {
            self.ensure_legal();
            Ok(self.legal.iter().map(|a| a.code()).collect())
        })
    }

    /// Play the legal action at `index` of `legal()`.
    fn apply_index(&mut self, py: Python<'_>, index: usize) -> PyResult<()> {
        guard(py, || {
            self.ensure_legal();
            let Some(&a) = self.legal.get(index) else {
                return Err(PyValueError::new_err(format!("no legal action {index}")));
            };
            self.g.apply_legal(a);
            self.listed = false;
            Ok(())
        })
    }

    /// Play the action of `code`; `ValueError` (the game unchanged) when it is not legal.
    fn apply_code(&mut self, py: Python<'_>, code: u64) -> PyResult<()> {
        guard(py, || {
            let Some(a) = Action::from_code(code) else {
                return Err(PyValueError::new_err(format!("no action has the code {code}")));
            };
            let mut scratch = std::mem::take(&mut self.legal);
            let r = self.g.apply(a, &mut scratch);
            self.legal = scratch;
            self.listed = false;
            r.map_err(|e| PyValueError::new_err(e.0))
        })
    }

    fn clone(&self) -> KernelGame {
        KernelGame {
            g: self.g.clone(),
            legal: self.legal.clone(),
            listed: self.listed,
            hut_names: self.hut_names.clone(),
        }
    }

    /// Play to the end with a random bot in every seat (`legal[rng.randrange(len(legal))]`
    /// per decision, as the Python random bot), each seat's generator given by its state as
    /// bytes (`array("I", random.getstate()[1]).tobytes()`: 624 words and the index, native
    /// byte order) or by a seed (`random.Random(seed)`, `0 <= seed < 2**64`); at most `max_actions` actions. Returns the codes of the actions played, the
    /// generators' states after, as bytes again, and the steps: three bytes per action (the seat
    /// that decided it, its phase as `Phase`'s number, the scorings held before it), then three
    /// for the end (255, the phase, the scorings held).
    ///
    /// With `record`, also what a result record counts of the actions played and reads of the
    /// final state, as JSON (`kernel::export::record_json`: `tallies`, `action_counts`,
    /// `money_left`); else `None`.
    #[pyo3(signature = (bots, max_actions=100_000, record=false))]
    #[allow(clippy::type_complexity)]
    fn play_random<'py>(
        &mut self,
        py: Python<'py>,
        bots: Vec<Generator>,
        max_actions: usize,
        record: bool,
    ) -> PyResult<(Vec<u64>, Vec<Bound<'py, PyBytes>>, Bound<'py, PyBytes>, Option<String>)> {
        let seats = bots.into_iter().map(SeatSpec::Random).collect();
        self.play_bots(py, seats, max_actions, record)
    }

    /// Play to the end as `play_random` does, each seat a random bot (its generator, as there)
    /// or a greedy bot (`(weights, noise, generator)`: the 21 weights of
    /// `alhambra.bots.evaluate.Weights` in field order, the noise, the bot's generator for the
    /// noise), choosing as `alhambra.bots.GreedyBot` does (`kernel::greedy`). Returns what
    /// `play_random` returns.
    #[pyo3(signature = (seats, max_actions=100_000, record=false))]
    #[allow(clippy::type_complexity)]
    fn play_bots<'py>(
        &mut self,
        py: Python<'py>,
        seats: Vec<SeatSpec>,
        max_actions: usize,
        record: bool,
    ) -> PyResult<(Vec<u64>, Vec<Bound<'py, PyBytes>>, Bound<'py, PyBytes>, Option<String>)> {
        if seats.len() != self.g.n as usize {
            return Err(config_error(py, format!("one player per seat ({}), not {}", self.g.n, seats.len())));
        }
        let mut players = Vec::with_capacity(seats.len());
        for seat in &seats {
            players.push(match seat {
                SeatSpec::Random(gen) => Player::Random(generator(py, gen)?),
                SeatSpec::Greedy((weights, noise, gen)) => {
                    let w =
                        Weights::from_slice(weights).map_err(|why| config_error(py, format!("greedy bot: {why}")))?;
                    if !noise.is_finite() {
                        return Err(config_error(py, format!("greedy bot: the noise must be finite, not {noise}")));
                    }
                    Player::Greedy(w, *noise, generator(py, gen)?)
                }
            });
        }
        let (played, steps, report) = guard(py, || {
            let mut played = Vec::with_capacity(512);
            let mut steps: Vec<u8> = Vec::with_capacity(1536);
            let g = &mut *self.g;
            let legal = &mut self.legal;
            let players = &mut players;
            let report = py.detach(|| {
                let mut tally = if record { Some(Box::<Tally>::default()) } else { None };
                let mut memo = Memo::default();
                while let Some(seat) = g.current_player() {
                    if played.len() >= max_actions {
                        break;
                    }
                    g.legal(legal);
                    let k = match &mut players[seat as usize] {
                        Player::Random(rng) => rng.below(legal.len() as u32) as usize,
                        Player::Greedy(w, noise, rng) => greedy::choose(g, w, *noise, rng, legal, &mut memo),
                    };
                    let a = legal[k];
                    steps.extend_from_slice(&[seat, g.phase as u8, g.scorings.len() as u8]);
                    if let Some(t) = tally.as_deref_mut() {
                        t.before(g, &a);
                        g.apply_legal(a);
                        t.after(g);
                    } else {
                        g.apply_legal(a);
                    }
                    played.push(a.code());
                }
                steps.extend_from_slice(&[u8::MAX, g.phase as u8, g.scorings.len() as u8]);
                tally.map(|t| kernel::export::record_json(g, &t))
            });
            self.listed = false;
            Ok((played, steps, report))
        })?;
        let states = players
            .iter()
            .map(|p| {
                let r = match p {
                    Player::Random(r) | Player::Greedy(_, _, r) => r,
                };
                let mut out = Vec::with_capacity(625 * 4);
                for w in r.state.iter().chain(std::iter::once(&r.index)) {
                    out.extend_from_slice(&w.to_ne_bytes());
                }
                PyBytes::new(py, &out)
            })
            .collect();
        Ok((played, states, PyBytes::new(py, &steps), report))
    }

    /// The greedy evaluation's values of the legal actions now, in their order, for the seat
    /// to decide (`Evaluator(game, seat, weights).action_values(legal)`); `weights`: the 21
    /// weights in field order. Empty once the game is over.
    fn greedy_values(&mut self, py: Python<'_>, weights: Vec<f64>) -> PyResult<Vec<f64>> {
        let w = Weights::from_slice(&weights).map_err(|why| config_error(py, format!("greedy bot: {why}")))?;
        guard(py, || {
            self.ensure_legal();
            let mut out = Vec::with_capacity(self.legal.len());
            greedy::action_values(&self.g, &w, &self.legal, &mut Memo::default(), &mut out);
            Ok(out)
        })
    }

    /// What a result record reads of the state, as JSON: `turn`, `start_player`, `scorings`
    /// (as the save writes them) and each seat's `hand` (card codes).
    fn summary_json(&self, py: Python<'_>) -> PyResult<String> {
        guard(py, || Ok(kernel::export::summary_json(&self.g)))
    }

    #[getter]
    fn current_player(&self) -> Option<u8> {
        self.g.current_player()
    }

    #[getter]
    fn phase(&self) -> &'static str {
        self.g.phase.name()
    }

    #[getter]
    fn is_over(&self) -> bool {
        self.g.is_over()
    }

    #[getter]
    fn num_players(&self) -> usize {
        self.g.n as usize
    }

    #[getter]
    fn scores(&self) -> Vec<i32> {
        (0..self.g.n as usize).map(|p| self.g.players[p].score).collect()
    }

    #[getter]
    fn winners(&self) -> Vec<u8> {
        self.g.winners()
    }

    #[getter]
    fn turn(&self) -> u32 {
        self.g.turn
    }

    /// The state as the save's JSON state object (players' names empty).
    fn state_json(&self, py: Python<'_>) -> PyResult<String> {
        guard(py, || Ok(kernel::export::state_json_with(&self.g, &self.hut_names)))
    }

    /// The random generator's state: `(624 words, index)` as `random.Random.getstate()`.
    fn rng_state(&self) -> (Vec<u32>, u32) {
        (self.g.rng.state.to_vec(), self.g.rng.index)
    }

    /// A kernel game in the state of a save's `state` object (plain data, already validated
    /// by the Python engine), with the generator's state, the passes in a row, the modules and
    /// the module options (as `KernelGame(...)` takes them).
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (state, words, index, passes, holes="cell", tiebreak="shared", start_player="seat", mods=0, diamonds=None, huts=None, gates=None))]
    fn load(
        py: Python<'_>,
        state: &Bound<'_, PyDict>,
        words: Vec<u32>,
        index: u32,
        passes: u8,
        holes: &str,
        tiebreak: &str,
        start_player: &str,
        mods: u8,
        diamonds: Option<Vec<u8>>,
        huts: Huts,
        gates: Option<u8>,
    ) -> PyResult<KernelGame> {
        let (opts, names) = options(holes, tiebreak, start_player, diamonds, huts, gates)?;
        let rng = Mt::from_state(&words, index).ok_or_else(|| PyValueError::new_err("bad generator state"))?;
        let named = (mods & BUILDING_HUTS != 0).then_some(names.as_slice());
        let l = guard(py, || read_state(state, opts, rng, passes, mods, named))?;
        guard(py, || Game::load(&l).map(|g| KernelGame::wrap(g, names.clone())).map_err(|e| PyValueError::new_err(e.0)))
    }
}

// -- reading a save's state object -------------------------------------------------------------

fn item<'py>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<Bound<'py, PyAny>> {
    d.get_item(key)?.ok_or_else(|| PyValueError::new_err(format!("state: no {key:?}")))
}

fn card(code: &str) -> PyResult<u8> {
    card_of_code(code).ok_or_else(|| PyValueError::new_err(format!("the kernel knows no card {code:?}")))
}

fn cards(v: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    v.extract::<Vec<String>>()?.iter().map(|c| card(c)).collect()
}

fn tiles(v: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    let ids: Vec<i64> = v.extract()?;
    ids.iter().map(|&t| tile(t)).collect()
}

fn tile(t: i64) -> PyResult<u8> {
    if (1..=54).contains(&t) {
        Ok(t as u8)
    } else {
        Err(PyValueError::new_err(format!("the kernel knows no tile {t}")))
    }
}

/// A tile where a hut may be: a building's number, or a hut's id among `huts` (the layout's ids,
/// `None` in a game without huts).
fn any_tile(v: &Bound<'_, PyAny>, huts: Option<&[String]>) -> PyResult<u8> {
    if let (Ok(id), Some(names)) = (v.extract::<String>(), huts) {
        return hut_of_name(&id, names).ok_or_else(|| PyValueError::new_err(format!("the kernel knows no hut {id:?}")));
    }
    tile(v.extract()?)
}

fn any_tiles(v: &Bound<'_, PyAny>, huts: Option<&[String]>) -> PyResult<Vec<u8>> {
    v.cast::<PyList>()?.iter().map(|t| any_tile(&t, huts)).collect()
}

fn per_type<T: for<'a> FromPyObject<'a, 'a> + Default + Copy>(v: &Bound<'_, PyAny>) -> PyResult<[T; 6]> {
    let d = v.cast::<PyDict>()?;
    let keys: Vec<String> = d.keys().extract()?;
    if !d.is_empty() && keys.iter().map(String::as_str).ne(TYPE_NAMES.iter().copied()) {
        // a table the kernel would write back otherwise (every type, in order)
        return Err(PyValueError::new_err("a scoring table lists every building type or none"));
    }
    let mut out = [T::default(); 6];
    for (t, name) in TYPE_NAMES.iter().enumerate() {
        out[t] = match d.get_item(name)? {
            Some(x) => x.extract().map_err(Into::into)?,
            None => T::default(),
        };
    }
    Ok(out)
}

fn read_state(
    d: &Bound<'_, PyDict>,
    opts: Options,
    rng: Mt,
    passes: u8,
    mods: u8,
    huts: Option<&[String]>,
) -> PyResult<Loaded> {
    let players = item(d, "players")?;
    let players = players.cast::<PyList>()?;
    let n = players.len();
    if !(2..=6).contains(&n) {
        return Err(PyValueError::new_err(format!("{n} players: Alhambra is for 2 to 6")));
    }
    let (mut hands, mut cities, mut reserves, mut scores) = (vec![], vec![], vec![], vec![]);
    let mut opens: Vec<Vec<(i32, i32, u8)>> = vec![];
    for p in players.iter() {
        let p = p.cast::<PyDict>()?;
        hands.push(cards(&item(p, "hand")?)?);
        reserves.push(any_tiles(&item(p, "reserve")?, huts)?);
        scores.push(item(p, "score")?.extract()?);
        let mut city = vec![];
        let mut open = vec![];
        for entry in item(p, "city")?.cast::<PyList>()?.iter() {
            let e: Vec<Bound<'_, PyAny>> = entry.extract()?;
            if e.len() == 4 && e[3].extract::<String>().ok().as_deref() == Some("open") {
                // a side declared open (a city gate, R-GATE-6): as the module's gates list it
                if mods & GATES == 0 {
                    return Err(PyValueError::new_err("a side declared open needs the city gates"));
                }
                open.push(gate_of(&e[..3])?);
                continue;
            }
            if e.len() != 3 {
                return Err(PyValueError::new_err("an Alhambra is a list of [x, y, tile] and [x, y, side, \"open\"]"));
            }
            let (x, y): (i32, i32) = (e[0].extract()?, e[1].extract()?);
            if (x, y) != (0, 0) {
                city.push((x, y, any_tile(&e[2], huts)?));
            } else if e[2].extract::<i64>().ok() != Some(0) {
                return Err(PyValueError::new_err("the fountain stands at (0, 0)"));
            }
        }
        cities.push(city);
        open.sort_unstable();
        opens.push(open);
    }
    let mut market = [0u8; 4];
    let m: Vec<Option<i64>> = item(d, "market")?.extract()?;
    if m.len() != 4 {
        return Err(PyValueError::new_err("the market has four spaces"));
    }
    for (i, t) in m.iter().enumerate() {
        if let Some(t) = t {
            market[i] = tile(*t)?;
        }
    }
    let phase = item(d, "phase")?.extract::<String>()?;
    let phase = match phase_of(&phase) {
        Some(Phase::Gates) if mods & GATES == 0 => None,
        p => p,
    }
    .ok_or_else(|| PyValueError::new_err(format!("the kernel knows no phase {phase:?}")))?;
    let place_context = match item(d, "place_context")?.extract::<String>()?.as_str() {
        "" => Context::None,
        "turn" => Context::Turn,
        "distribution" => Context::Distribution,
        "vizier" => Context::Vizier,
        other => return Err(PyValueError::new_err(format!("the kernel knows no placement context {other:?}"))),
    };
    let mut pending = vec![];
    for p in item(d, "pending")?.cast::<PyList>()?.iter() {
        let p = p.cast::<PyDict>()?;
        pending.push((any_tile(&item(p, "tile")?, huts)?, item(p, "dirk_ok")?.extract()?));
    }
    let mut scorings = vec![];
    for r in item(d, "scorings")?.cast::<PyList>()?.iter() {
        let r = r.cast::<PyDict>()?;
        let extra = item(r, "extra")?;
        let extra = extra.cast::<PyDict>()?;
        let mut position = None;
        for (name, column) in extra.iter() {
            if name.extract::<String>()? != "position" {
                return Err(PyValueError::new_err("the kernel holds no extra scoring column but a position's"));
            }
            let points: Vec<i32> = column.extract()?;
            let mut arr = [0i32; 7];
            if points.len() > 7 {
                return Err(PyValueError::new_err("a scoring column has one entry per participant"));
            }
            arr[..points.len()].copy_from_slice(&points);
            position = Some(arr);
        }
        let parts: Vec<usize> = item(r, "participants")?.extract()?;
        if parts.len() > 7 || parts.iter().enumerate().any(|(i, &p)| i != p) {
            return Err(PyValueError::new_err("scoring participants must be 0..n"));
        }
        let mut rec = Scoring {
            number: item(r, "number")?.extract()?,
            participants: parts.len() as u8,
            position,
            ..Default::default()
        };
        let counts = item(r, "counts")?;
        let majority = item(r, "majority")?;
        let walls: Vec<i32> = item(r, "walls")?.extract()?;
        let counts = counts.cast::<PyList>()?;
        let majority = majority.cast::<PyList>()?;
        if counts.len() != parts.len() || majority.len() != parts.len() || walls.len() != parts.len() {
            return Err(PyValueError::new_err("a scoring record needs one entry per participant"));
        }
        rec.bare = (0..parts.len())
            .all(|i| counts.get_item(i).ok().and_then(|c| c.cast::<PyDict>().ok().map(|d| d.is_empty())) == Some(true));
        for (i, &wall) in walls.iter().enumerate() {
            rec.counts[i] = per_type::<u8>(&counts.get_item(i)?)?;
            rec.majority[i] = per_type::<i32>(&majority.get_item(i)?)?;
            rec.walls[i] = wall;
        }
        scorings.push(rec);
    }
    let mut distribution = vec![];
    for e in item(d, "distribution")?.cast::<PyList>()?.iter() {
        let pair: Vec<Bound<'_, PyAny>> = e.extract()?;
        if pair.len() != 2 {
            return Err(PyValueError::new_err("distribution: [seat, [tiles]] pairs"));
        }
        distribution.push((pair[0].extract()?, tiles(&pair[1])?));
    }
    let modules = item(d, "modules")?;
    let modules = modules.cast::<PyDict>()?;
    let (mut dirk, mut dirk_score) = (vec![], 0);
    let mut vizier = VizierState { asked: -1, ..Default::default() };
    let mut bonus = BonusState::default();
    let mut gates = GatesState::default();
    let mut city_gates: Vec<Vec<(i32, i32, u8)>> = vec![vec![]; n];
    let mut has_gates = false;
    let mut hut_stacks = vec![];
    for (key, value) in modules.iter() {
        let key: String = key.extract()?;
        let v = value.cast::<PyDict>()?;
        match key.as_str() {
            "dirk" => {
                dirk = tiles(&item(v, "tiles")?)?;
                dirk_score = item(v, "score")?.extract()?;
            }
            "vizier" => {
                let active: Vec<bool> = item(v, "active")?.extract()?;
                let queue: Vec<u8> = item(v, "queue")?.extract()?;
                if active.len() != n || queue.len() > 8 {
                    return Err(PyValueError::new_err("vizier: one token per seat, a queue of seats"));
                }
                vizier.active[..n].copy_from_slice(&active);
                vizier.queue = kernel::stack::Stack::from_slice(&queue);
                vizier.asked = item(v, "asked")?.extract()?;
                vizier.started = item(v, "started")?.extract()?;
                vizier.round_over = item(v, "round_over")?.extract()?;
            }
            "bonus_cards" => {
                let per_seat = |name: &str, out: &mut [u16; 6]| -> PyResult<bool> {
                    let lists: Vec<Vec<i64>> = item(v, name)?.extract()?;
                    if lists.is_empty() && (name == "owned" || name == "not_held") {
                        return Ok(false); // no record (a save written before it existed)
                    }
                    if lists.len() != n {
                        return Err(PyValueError::new_err(format!("bonus_cards.{name}: one list per seat")));
                    }
                    for (seat, cards) in lists.iter().enumerate() {
                        out[seat] = bonus_bits(name, cards)?;
                    }
                    Ok(true)
                };
                per_seat("hands", &mut bonus.hands)?;
                per_seat("revealed", &mut bonus.revealed)?;
                bonus.has_owned = per_seat("owned", &mut bonus.owned)?;
                bonus.has_not_held = per_seat("not_held", &mut bonus.not_held)?;
                bonus.out_of_play = bonus_bits("out_of_play", &item(v, "out_of_play")?.extract::<Vec<i64>>()?)?;
            }
            "city_gates" if mods & GATES != 0 => {
                has_gates = true;
                gates = read_gates(v, n, &mut city_gates)?;
            }
            "building_huts" if huts.is_some() => {
                // the six stacks in scoring order, as the module sets them up and the kernel writes them
                let stacks = item(v, "stacks")?;
                let stacks = stacks.cast::<PyDict>()?;
                let keys: Vec<String> = stacks.keys().extract()?;
                if keys.iter().map(String::as_str).ne(TYPE_NAMES.iter().copied()) || v.len() != 1 {
                    return Err(PyValueError::new_err(
                        "building_huts: the kernel holds one stack per colour, in order",
                    ));
                }
                for (_, stack) in stacks.iter() {
                    hut_stacks.push(any_tiles(&stack, huts)?);
                }
            }
            _ => return Err(PyValueError::new_err(format!("the kernel holds no module state {key:?}"))),
        }
    }
    if mods & GATES != 0 {
        if !has_gates {
            return Err(PyValueError::new_err("the city gates' state is missing"));
        }
        for (seat, listed) in city_gates.iter().enumerate() {
            let mut sorted = listed.clone();
            sorted.sort_unstable();
            if sorted != opens[seat] {
                return Err(PyValueError::new_err(format!(
                    "city_gates.gates[{seat}]: the gates do not match the sides declared open in that Alhambra"
                )));
            }
        }
    }
    Ok(Loaded {
        n,
        opts,
        hands,
        cities,
        reserves,
        scores,
        bag: tiles(&item(d, "bag")?)?,
        market,
        deck: cards(&item(d, "deck")?)?,
        discard: cards(&item(d, "discard")?)?,
        display: cards(&item(d, "display")?)?,
        start_player: item(d, "start_player")?.extract()?,
        turn_player: item(d, "turn_player")?.extract()?,
        decider: item(d, "decider")?.extract()?,
        phase,
        turn: item(d, "turn")?.extract()?,
        pending,
        place_context,
        pending_scorings: item(d, "pending_scorings")?.extract()?,
        scoring_cards: cards(&item(d, "scoring_cards")?)?,
        scorings,
        distribution,
        out_of_play: tiles(&item(d, "out_of_play")?)?,
        pile_sizes: item(d, "pile_sizes")?.extract()?,
        dirk,
        dirk_score,
        passes,
        rng,
        mods,
        vizier,
        bonus,
        gates,
        city_gates,
        hut_stacks,
    })
}

/// A gate `[x, y, side]` (side 2, east, or 4, south: as kept) within the grid.
fn gate_of(e: &[Bound<'_, PyAny>]) -> PyResult<(i32, i32, u8)> {
    let bad = || PyValueError::new_err("a gate is [x, y, 2|4] (the east or south side of a cell within the grid)");
    if e.len() != 3 {
        return Err(bad());
    }
    let (x, y, side): (i32, i32, u8) =
        (e[0].extract().map_err(|_| bad())?, e[1].extract().map_err(|_| bad())?, e[2].extract().map_err(|_| bad())?);
    if (side != EAST && side != SOUTH) || cell_of(x, y).is_none() {
        return Err(bad());
    }
    Ok((x, y, side))
}

/// A number of a gate card (1-6, R-GATE-1).
fn gate_number(k: i64, what: &str) -> PyResult<u8> {
    if (1..=GATE_CARDS as i64).contains(&k) {
        Ok(k as u8)
    } else {
        Err(PyValueError::new_err(format!("city_gates.{what}: gate cards are numbered 1-{GATE_CARDS}, not {k}")))
    }
}

/// The city gates' state (the module's `CityGatesState`): `gates` into `city_gates` per seat.
fn read_gates(v: &Bound<'_, PyDict>, n: usize, city_gates: &mut [Vec<(i32, i32, u8)>]) -> PyResult<GatesState> {
    let mut gs = GatesState::default();
    let space: i64 = item(v, "space")?.extract()?;
    gs.space = if space == 0 { 0 } else { gate_number(space, "space")? };
    let seats = item(v, "gates")?;
    let seats = seats.cast::<PyList>()?;
    if seats.len() != n {
        return Err(PyValueError::new_err("city_gates.gates: one list of gates per seat"));
    }
    let mut count = 0;
    for (seat, listed) in seats.iter().enumerate() {
        for g in listed.cast::<PyList>()?.iter() {
            let e: Vec<Bound<'_, PyAny>> = g.extract()?;
            city_gates[seat].push(gate_of(&e)?);
            count += 1;
        }
    }
    for (name, out) in [("played", &mut gs.played), ("unused", &mut gs.unused)] {
        let nums: Vec<i64> = item(v, name)?.extract()?;
        if nums.len() > GATE_CARDS as usize {
            return Err(PyValueError::new_err(format!("city_gates.{name}: at most {GATE_CARDS} gate cards")));
        }
        for k in nums {
            out.push(gate_number(k, name)?);
        }
    }
    if count != gs.played.len() {
        return Err(PyValueError::new_err("city_gates: every gate played is one card played (R-GATE-5)"));
    }
    gs.window = match item(v, "window")?.extract::<String>()?.as_str() {
        "" => Window::None,
        "change" => Window::Change,
        "removal" => Window::Removal,
        other => return Err(PyValueError::new_err(format!("city_gates.window: the kernel knows no window {other:?}"))),
    };
    gs.then = match item(v, "then")?.extract::<String>()?.as_str() {
        "" => After::Nothing,
        "done" => After::Done,
        other => After::In(
            phase_of(other).ok_or_else(|| PyValueError::new_err(format!("city_gates.then: no phase {other:?}")))?,
        ),
    };
    Ok(gs)
}

fn phase_of(name: &str) -> Option<Phase> {
    Some(match name {
        "turn" => Phase::Turn,
        "place" => Phase::Place,
        "distribution" => Phase::Distribution,
        "over" => Phase::Over,
        "vizier" => Phase::Vizier,
        "gates" => Phase::Gates,
        _ => return None,
    })
}

/// A sorted list of bonus cards (each named by its building) as the kernel's bit set; the
/// kernel keeps the module's lists sorted, so it refuses one that is not.
fn bonus_bits(name: &str, cards: &[i64]) -> PyResult<u16> {
    let mut bits = 0u16;
    for (k, &b) in cards.iter().enumerate() {
        let bit = u8::try_from(b).ok().and_then(bonus_bit);
        match bit {
            Some(bit) if k == 0 || cards[k - 1] < b => bits |= bit,
            _ => {
                return Err(PyValueError::new_err(format!(
                "bonus_cards.{name}: the kernel holds sorted lists of the bonus cards {BONUS_CARDS:?}, not {cards:?}"
            )))
            }
        }
    }
    Ok(bits)
}

// -- actions as the save writes them ------------------------------------------------------------

fn codes<'py>(py: Python<'py>, cards: &[u8]) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, cards.iter().map(|&c| card_code(c)))
}

/// A tile as the save writes it: a building's number, a hut's id.
fn tile_data<'py>(py: Python<'py>, t: u8, huts: &[String]) -> PyResult<Bound<'py, PyAny>> {
    if is_hut(t) {
        let k = (t - HUT_FIRST) as usize;
        let id = huts.get(k).cloned().unwrap_or_else(|| format!("H{}", k + 1));
        Ok(id.into_pyobject(py)?.into_any())
    } else {
        Ok(t.into_pyobject(py)?.into_any())
    }
}

fn action_data<'py>(py: Python<'py>, a: &Action, huts: &[String]) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let pos = |c: u16| {
        let (x, y) = xy(c);
        vec![x, y]
    };
    match *a {
        Action::Take { cards, n } => {
            d.set_item("type", "TakeMoney")?;
            d.set_item("cards", codes(py, &cards[..n as usize])?)?;
        }
        Action::Buy(p) | Action::UseVizier(p) => {
            d.set_item("type", if matches!(a, Action::Buy(_)) { "Buy" } else { "UseVizier" })?;
            d.set_item("space", p.space)?;
            let mut cards = kernel::stack::Stack::<u8, 64>::new();
            p.cards(&mut cards);
            d.set_item("cards", codes(py, cards.as_slice())?)?;
            d.set_item("via", if p.via == 0 { None } else { Some(card_code(p.via)) })?;
        }
        Action::Build { tile, cell } | Action::Swap { tile, cell } | Action::Place { tile, cell } => {
            let name = match a {
                Action::Build { .. } => "BuildFromReserve",
                Action::Swap { .. } => "Swap",
                _ => "Place",
            };
            d.set_item("type", name)?;
            d.set_item("tile", tile_data(py, tile, huts)?)?;
            d.set_item("pos", pos(cell))?;
        }
        Action::Remove { cell } => {
            d.set_item("type", "RemoveToReserve")?;
            d.set_item("pos", pos(cell))?;
        }
        Action::Reserve { tile } | Action::GiveToDirk { tile } => {
            d.set_item("type", if matches!(a, Action::Reserve { .. }) { "Reserve" } else { "GiveToDirk" })?;
            d.set_item("tile", tile_data(py, tile, huts)?)?;
        }
        Action::Pass => d.set_item("type", "Pass")?,
        Action::TakeOffice { card } => {
            d.set_item("type", "TakeOffice")?;
            d.set_item("office", card_code(card))?;
        }
        Action::DeclineVizier => d.set_item("type", "DeclineVizier")?,
        Action::ReactivateVizier => d.set_item("type", "ReactivateVizier")?,
        Action::BuyDiamonds(p) => {
            d.set_item("type", "BuyWithDiamonds")?;
            d.set_item("space", p.space)?;
            d.set_item("cards", codes(py, &p.cards().collect::<Vec<_>>())?)?;
        }
        Action::UseVizierDiamonds(p) => {
            d.set_item("type", "UseVizier")?;
            d.set_item("space", p.space)?;
            d.set_item("cards", codes(py, &p.cards().collect::<Vec<_>>())?)?;
            d.set_item("via", None::<String>)?;
        }
        Action::RevealBonus { building } => {
            d.set_item("type", "RevealBonus")?;
            d.set_item("building", building)?;
        }
        Action::TakeGate { card } => {
            d.set_item("type", "TakeGate")?;
            d.set_item("card", card_code(card))?;
        }
        Action::PlayGate { card, cell, side } => {
            let (x, y) = xy(cell);
            d.set_item("type", "PlayGate")?;
            d.set_item("card", card_code(card))?;
            d.set_item("x", x)?;
            d.set_item("y", y)?;
            d.set_item("side", side)?;
        }
        Action::FinishGates => d.set_item("type", "FinishGates")?,
        Action::BuildThroughGate { card, tile, cell, side } => {
            let (x, y) = xy(cell);
            d.set_item("type", "BuildThroughGate")?;
            d.set_item("card", card_code(card))?;
            d.set_item("tile", tile_data(py, tile, huts)?)?;
            d.set_item("x", x)?;
            d.set_item("y", y)?;
            d.set_item("side", side)?;
        }
        Action::TakeHut { hut } => {
            d.set_item("type", "TakeHut")?;
            d.set_item("hut", tile_data(py, hut, huts)?)?;
        }
    }
    Ok(d)
}

/// An int field (exactly an int: `2.0` or `True` is no tile, space or coordinate).
fn small_int<T: TryFrom<i64>>(v: Option<Bound<'_, PyAny>>) -> Option<T> {
    let v = v?;
    if !v.is_exact_instance_of::<pyo3::types::PyInt>() {
        return None;
    }
    T::try_from(v.extract::<i64>().ok()?).ok()
}

fn card_list(v: Option<Bound<'_, PyAny>>) -> Option<Vec<u8>> {
    let list = v?.extract::<Vec<String>>().ok()?;
    list.iter().map(|c| card_of_code(c)).collect()
}

fn cell_at(v: Option<Bound<'_, PyAny>>) -> Option<u16> {
    let items = v?.extract::<Vec<Bound<'_, PyAny>>>().ok()?;
    if items.len() != 2 {
        return None;
    }
    cell_of(small_int::<i32>(Some(items[0].clone()))?, small_int::<i32>(Some(items[1].clone()))?)
}

fn payment_of_data(d: &Bound<'_, PyDict>) -> Option<Payment> {
    let space = small_int::<u8>(d.get_item("space").ok()?)?;
    if !(1..=4).contains(&space) {
        return None;
    }
    let via = match d.get_item("via").ok()? {
        None => 0,
        Some(v) if v.is_none() => 0,
        Some(v) => match v.extract::<String>().ok().and_then(|c| card_of_code(&c)) {
            Some(c) if is_office(c) => c,
            _ => return None,
        },
    };
    let cards = card_list(d.get_item("cards").ok()?)?;
    let mut p = Payment { space, via, ..Default::default() };
    if via != 0 {
        let (a, b) = office_pair(via);
        if a != space - 1 && b != space - 1 {
            return None;
        }
    }
    for c in cards {
        if !is_money(c) {
            return None;
        }
        let lane = if currency(c) == p.currency(0) {
            0
        } else if via != 0 && currency(c) == p.currency(1) {
            1
        } else {
            return None;
        };
        let slot = &mut p.counts[lane][(value(c) - 1) as usize];
        if *slot >= 7 {
            return None;
        }
        *slot += 1;
    }
    Some(p)
}

/// A payment all in diamonds (`space`, `cards`, and with `via_field` a `via` that is `None`),
/// or `None` for anything else (no card, a card that is no diamond, a diamond twice).
fn diamonds_of_data(d: &Bound<'_, PyDict>, via_field: bool) -> Option<DiamondPay> {
    let space = small_int::<u8>(d.get_item("space").ok()?)?;
    if !(1..=4).contains(&space) {
        return None;
    }
    if via_field {
        match d.get_item("via").ok()? {
            None => {}
            Some(v) if v.is_none() => {}
            Some(_) => return None,
        }
    }
    let cards = card_list(d.get_item("cards").ok()?)?;
    if cards.is_empty() || !cards.iter().all(|&c| is_diamond(c)) {
        return None;
    }
    DiamondPay::of_cards(space, &cards)
}

/// The gate card of an action's `card` field.
fn gate_card(d: &Bound<'_, PyDict>) -> Option<u8> {
    let c = card_of_code(&d.get_item("card").ok()??.extract::<String>().ok()?)?;
    is_gate(c).then_some(c)
}

/// The cell of an action's `x` and `y` fields.
fn xy_at(d: &Bound<'_, PyDict>) -> Option<u16> {
    cell_of(small_int::<i32>(d.get_item("x").ok()?)?, small_int::<i32>(d.get_item("y").ok()?)?)
}

fn code_of_data(d: &Bound<'_, PyDict>, huts: Option<&[String]>) -> Option<Action> {
    let kind = d.get_item("type").ok()??.extract::<String>().ok()?;
    let hut = |v: Option<Bound<'_, PyAny>>| {
        let v = v?;
        if !v.is_exact_instance_of::<pyo3::types::PyString>() {
            return None;
        }
        hut_of_name(&v.extract::<String>().ok()?, huts?)
    };
    let tile = || {
        let v = d.get_item("tile").ok()?;
        hut(v.clone()).or_else(|| small_int::<u8>(v).filter(|t| (1..=54).contains(t)))
    };
    let pos = || cell_at(d.get_item("pos").ok()?);
    Some(match kind.as_str() {
        "TakeMoney" => {
            let cards = card_list(d.get_item("cards").ok()?)?;
            if cards.is_empty() || cards.len() > 4 || cards.iter().any(|&c| !kernel::data::is_cash(c)) {
                return None;
            }
            let mut arr = [0u8; 4];
            arr[..cards.len()].copy_from_slice(&cards);
            Action::Take { cards: arr, n: cards.len() as u8 }
        }
        "Buy" => Action::Buy(payment_of_data(d)?),
        "UseVizier" => match diamonds_of_data(d, true) {
            Some(p) => Action::UseVizierDiamonds(p),
            None => Action::UseVizier(payment_of_data(d)?),
        },
        "BuyWithDiamonds" => Action::BuyDiamonds(diamonds_of_data(d, false)?),
        "RevealBonus" => {
            let b = small_int::<u8>(d.get_item("building").ok()?)?;
            bonus_bit(b)?;
            Action::RevealBonus { building: b }
        }
        "BuildFromReserve" => Action::Build { tile: tile()?, cell: pos()? },
        "Swap" => Action::Swap { tile: tile()?, cell: pos()? },
        "Place" => Action::Place { tile: tile()?, cell: pos()? },
        "RemoveToReserve" => Action::Remove { cell: pos()? },
        "Reserve" => Action::Reserve { tile: tile()? },
        "GiveToDirk" => Action::GiveToDirk { tile: tile()? },
        "Pass" => Action::Pass,
        "TakeOffice" => match d.get_item("office").ok()??.extract::<String>().ok().and_then(|c| card_of_code(&c)) {
            Some(c) if is_office(c) => Action::TakeOffice { card: c },
            _ => return None,
        },
        "DeclineVizier" => Action::DeclineVizier,
        "ReactivateVizier" => Action::ReactivateVizier,
        "TakeGate" => Action::TakeGate { card: gate_card(d)? },
        "PlayGate" => {
            let side = small_int::<u8>(d.get_item("side").ok()?).filter(|&s| s == EAST || s == SOUTH)?;
            Action::PlayGate { card: gate_card(d)?, cell: xy_at(d)?, side }
        }
        "FinishGates" => Action::FinishGates,
        "BuildThroughGate" => {
            let side = small_int::<u8>(d.get_item("side").ok()?).filter(|s| [NORTH, EAST, SOUTH, WEST].contains(s))?;
            Action::BuildThroughGate { card: gate_card(d)?, tile: tile()?, cell: xy_at(d)?, side }
        }
        "TakeHut" => Action::TakeHut { hut: hut(d.get_item("hut").ok()?)? },
        _ => return None,
    })
}

/// Raise a panic inside the kernel (for the test that a panic becomes an AlhambraError).
#[pyfunction]
fn _panic_for_test(py: Python<'_>) -> PyResult<()> {
    guard(py, || panic!("a planted panic"))
}

#[pymodule]
fn alhambra_kernel(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // a panic is reported through the exception it becomes, not printed
    std::panic::set_hook(Box::new(|_| {}));
    m.add_class::<KernelGame>()?;
    m.add_class::<env::KernelEnv>()?;
    m.add_class::<batch::BatchEnv>()?;
    m.add_function(wrap_pyfunction!(search::pimc_rewards, m)?)?;
    m.add_function(wrap_pyfunction!(spiel::spiel_next_draw, m)?)?;
    m.add_function(wrap_pyfunction!(spiel::spiel_tensor, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_for_test, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // the modules the kernel plays ((name, bit) pairs) and those its greedy evaluation values
    let names = kernel::game::MODULE_NAMES;
    m.add("MODULES", names.to_vec())?;
    let greedy: Vec<&str> = names.iter().filter(|(_, b)| greedy::GREEDY_MODULES & b != 0).map(|(n, _)| *n).collect();
    m.add("GREEDY_MODULES", greedy)?;
    // the phases' names by number (the phases of a trace of play_bots)
    m.add("PHASES", Phase::ALL.map(Phase::name).to_vec())?;
    Ok(())
}
