//! The Python bindings of the rules kernel (`alhambra_kernel`): a thin layer over the
//! `alhambra-kernel` crate. `alhambra` imports it when it is installed and wraps it in its
//! own `Game` API (`alhambra.game.KernelGame`); nothing here is meant to be used directly.
//!
//! Actions cross as integers (`Action::code`), states as the save's JSON text out and as the
//! save's plain data in. A panic inside the kernel is caught at this boundary and raised as
//! `alhambra.errors.KernelError` (an `AlhambraError`), never as a crash.

use kernel::city::Holes;
use kernel::data::{card_of_code, TYPE_NAMES};
use kernel::game::{Action, Context, Game, Loaded, Options, Phase, Scoring};
use kernel::rng::Mt;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::panic::{catch_unwind, AssertUnwindSafe};

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

fn kernel_error(py: Python<'_>, msg: String) -> PyErr {
    match py
        .import("alhambra.errors")
        .and_then(|m| m.getattr("KernelError"))
    {
        Ok(cls) => match cls.call1((msg.clone(),)) {
            Ok(exc) => PyErr::from_value(exc),
            Err(_) => PyRuntimeError::new_err(msg),
        },
        Err(_) => PyRuntimeError::new_err(msg),
    }
}

fn options(holes: &str, tiebreak: &str, start_player: &str) -> PyResult<Options> {
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
    Ok(Options {
        holes,
        tiebreak_money,
        start_random,
    })
}

/// A game on the kernel.
#[pyclass(module = "alhambra_kernel")]
struct KernelGame {
    g: Box<Game>,
    legal: Vec<Action>,
    /// `legal` is the list of the current state
    listed: bool,
}

impl KernelGame {
    fn wrap(g: Game) -> KernelGame {
        KernelGame {
            g: Box::new(g),
            legal: Vec::with_capacity(256),
            listed: false,
        }
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
    /// A new game of `players` seats from `seed`, as `alhambra.new_game` sets it up.
    #[new]
    #[pyo3(signature = (players, seed, holes="cell", tiebreak="shared", start_player="seat"))]
    fn new(
        py: Python<'_>,
        players: usize,
        seed: u64,
        holes: &str,
        tiebreak: &str,
        start_player: &str,
    ) -> PyResult<Self> {
        let opts = options(holes, tiebreak, start_player)?;
        if !(2..=6).contains(&players) {
            return Err(PyValueError::new_err(format!(
                "{players} players: Alhambra is for 2 to 6"
            )));
        }
        guard(py, || Ok(KernelGame::wrap(Game::new(players, seed, opts))))
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
                return Err(PyValueError::new_err(format!(
                    "no action has the code {code}"
                )));
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
        }
    }

    /// Play to the end with a random bot in every seat (`legal[rng.randrange(len(legal))]`
    /// per decision, as the Python random bot), each seat's generator given by its state
    /// (`random.Random.getstate()[1]`: 624 words and the index); at most `max_actions`
    /// actions. Returns the codes of the actions played and the generators' states after.
    #[pyo3(signature = (bots, max_actions=100_000))]
    #[allow(clippy::type_complexity)]
    fn play_random(
        &mut self,
        py: Python<'_>,
        bots: Vec<Vec<u32>>,
        max_actions: usize,
    ) -> PyResult<(Vec<u64>, Vec<Vec<u32>>)> {
        if bots.len() != self.g.n as usize {
            return Err(PyValueError::new_err("one generator per seat"));
        }
        let mut rngs = Vec::with_capacity(bots.len());
        for words in &bots {
            let state = words.get(..624).unwrap_or(&[]);
            let index = words.get(624).copied().unwrap_or(u32::MAX);
            rngs.push(
                Mt::from_state(state, index)
                    .ok_or_else(|| PyValueError::new_err("bad generator state"))?,
            );
        }
        guard(py, || {
            let mut played = Vec::with_capacity(512);
            let g = &mut *self.g;
            let legal = &mut self.legal;
            py.detach(|| {
                while let Some(seat) = g.current_player() {
                    if played.len() >= max_actions {
                        break;
                    }
                    g.legal(legal);
                    let a = legal[rngs[seat as usize].below(legal.len() as u32) as usize];
                    g.apply_legal(a);
                    played.push(a.code());
                }
            });
            self.listed = false;
            let states = rngs
                .iter()
                .map(|r| {
                    let mut w = r.state.to_vec();
                    w.push(r.index);
                    w
                })
                .collect();
            Ok((played, states))
        })
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
        (0..self.g.n as usize)
            .map(|p| self.g.players[p].score)
            .collect()
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
        guard(py, || Ok(kernel::export::state_json(&self.g)))
    }

    /// The random generator's state: `(624 words, index)` as `random.Random.getstate()`.
    fn rng_state(&self) -> (Vec<u32>, u32) {
        (self.g.rng.state.to_vec(), self.g.rng.index)
    }

    /// A kernel game in the state of a save's `state` object (plain data, already validated
    /// by the Python engine), with the generator's state and the passes in a row.
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (state, words, index, passes, holes="cell", tiebreak="shared", start_player="seat"))]
    fn load(
        py: Python<'_>,
        state: &Bound<'_, PyDict>,
        words: Vec<u32>,
        index: u32,
        passes: u8,
        holes: &str,
        tiebreak: &str,
        start_player: &str,
    ) -> PyResult<KernelGame> {
        let opts = options(holes, tiebreak, start_player)?;
        let rng = Mt::from_state(&words, index)
            .ok_or_else(|| PyValueError::new_err("bad generator state"))?;
        let l = read_state(state, opts, rng, passes)?;
        guard(py, || {
            Game::load(&l)
                .map(KernelGame::wrap)
                .map_err(|e| PyValueError::new_err(e.0))
        })
    }
}

// -- reading a save's state object -------------------------------------------------------------

fn item<'py>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<Bound<'py, PyAny>> {
    d.get_item(key)?
        .ok_or_else(|| PyValueError::new_err(format!("state: no {key:?}")))
}

fn card(code: &str) -> PyResult<u8> {
    card_of_code(code)
        .ok_or_else(|| PyValueError::new_err(format!("the kernel knows no card {code:?}")))
}

fn cards(v: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    v.extract::<Vec<String>>()?
        .iter()
        .map(|c| card(c))
        .collect()
}

fn tiles(v: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    let ids: Vec<i64> = v.extract()?;
    ids.iter().map(|&t| tile(t)).collect()
}

fn tile(t: i64) -> PyResult<u8> {
    if (1..=54).contains(&t) {
        Ok(t as u8)
    } else {
        Err(PyValueError::new_err(format!(
            "the kernel knows no tile {t}"
        )))
    }
}

fn per_type<T: for<'a> FromPyObject<'a, 'a> + Default + Copy>(
    v: &Bound<'_, PyAny>,
) -> PyResult<[T; 6]> {
    let d = v.cast::<PyDict>()?;
    let mut out = [T::default(); 6];
    for (t, name) in TYPE_NAMES.iter().enumerate() {
        out[t] = match d.get_item(name)? {
            Some(x) => x.extract().map_err(Into::into)?,
            None => T::default(),
        };
    }
    Ok(out)
}

fn read_state(d: &Bound<'_, PyDict>, opts: Options, rng: Mt, passes: u8) -> PyResult<Loaded> {
    let players = item(d, "players")?;
    let players = players.cast::<PyList>()?;
    let n = players.len();
    let (mut hands, mut cities, mut reserves, mut scores) = (vec![], vec![], vec![], vec![]);
    for p in players.iter() {
        let p = p.cast::<PyDict>()?;
        hands.push(cards(&item(p, "hand")?)?);
        reserves.push(tiles(&item(p, "reserve")?)?);
        scores.push(item(p, "score")?.extract()?);
        let mut city = vec![];
        for entry in item(p, "city")?.cast::<PyList>()?.iter() {
            let e: Vec<Bound<'_, PyAny>> = entry.extract()?;
            if e.len() != 3 {
                return Err(PyValueError::new_err(
                    "the kernel holds no side declared open (city gates)",
                ));
            }
            let (x, y, t): (i32, i32, i64) = (e[0].extract()?, e[1].extract()?, e[2].extract()?);
            if (x, y) != (0, 0) {
                city.push((x, y, tile(t)?));
            }
        }
        cities.push(city);
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
    let phase = match item(d, "phase")?.extract::<String>()?.as_str() {
        "turn" => Phase::Turn,
        "place" => Phase::Place,
        "distribution" => Phase::Distribution,
        "over" => Phase::Over,
        other => {
            return Err(PyValueError::new_err(format!(
                "the kernel knows no phase {other:?}"
            )))
        }
    };
    let place_context = match item(d, "place_context")?.extract::<String>()?.as_str() {
        "" => Context::None,
        "turn" => Context::Turn,
        "distribution" => Context::Distribution,
        other => {
            return Err(PyValueError::new_err(format!(
                "the kernel knows no placement context {other:?}"
            )))
        }
    };
    let mut pending = vec![];
    for p in item(d, "pending")?.cast::<PyList>()?.iter() {
        let p = p.cast::<PyDict>()?;
        pending.push((
            tile(item(p, "tile")?.extract()?)?,
            item(p, "dirk_ok")?.extract()?,
        ));
    }
    let mut scorings = vec![];
    for r in item(d, "scorings")?.cast::<PyList>()?.iter() {
        let r = r.cast::<PyDict>()?;
        if !item(r, "extra")?.cast::<PyDict>()?.is_empty() {
            return Err(PyValueError::new_err(
                "the kernel holds no extra scoring columns",
            ));
        }
        let parts: Vec<usize> = item(r, "participants")?.extract()?;
        if parts.len() > 7 || parts.iter().enumerate().any(|(i, &p)| i != p) {
            return Err(PyValueError::new_err("scoring participants must be 0..n"));
        }
        let mut rec = Scoring {
            number: item(r, "number")?.extract()?,
            participants: parts.len() as u8,
            ..Default::default()
        };
        let counts = item(r, "counts")?;
        let majority = item(r, "majority")?;
        let walls: Vec<i32> = item(r, "walls")?.extract()?;
        let counts = counts.cast::<PyList>()?;
        let majority = majority.cast::<PyList>()?;
        if counts.len() != parts.len()
            || majority.len() != parts.len()
            || walls.len() != parts.len()
        {
            return Err(PyValueError::new_err(
                "a scoring record needs one entry per participant",
            ));
        }
        for (i, &wall) in walls.iter().enumerate() {
            rec.counts[i] = per_type::<u8>(&counts.get_item(i)?)?;
            rec.majority[i] = per_type::<i32>(&majority.get_item(i)?)?;
            rec.walls[i] = wall;
        }
        scorings.push(rec);
    }
    let mut distribution = vec![];
    for e in item(d, "distribution")?.cast::<PyList>()?.iter() {
        let (s, ts): (u8, Bound<'_, PyAny>) = e.extract()?;
        distribution.push((s, tiles(&ts)?));
    }
    let modules = item(d, "modules")?;
    let modules = modules.cast::<PyDict>()?;
    let (mut dirk, mut dirk_score) = (vec![], 0);
    for (key, value) in modules.iter() {
        let key: String = key.extract()?;
        if key != "dirk" {
            return Err(PyValueError::new_err(format!(
                "the kernel holds no module state {key:?}"
            )));
        }
        let v = value.cast::<PyDict>()?;
        dirk = tiles(&item(v, "tiles")?)?;
        dirk_score = item(v, "score")?.extract()?;
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
    m.add_function(wrap_pyfunction!(_panic_for_test, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
