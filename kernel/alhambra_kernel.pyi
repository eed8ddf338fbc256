"""Type stubs of the rules kernel's Python bindings (kernel/py/src/lib.rs)."""

from collections.abc import Sequence

__version__: str
#: the modules the kernel plays: (name, bit in its module set) pairs
MODULES: list[tuple[str, int]]
#: the modules whose games the kernel's greedy evaluation values as the Python evaluator does
GREEDY_MODULES: list[str]
#: the names of the kernel's phases, by number
PHASES: list[str]

class KernelGame:
    def __init__(
        self,
        players: int,
        seed: int,
        holes: str = "cell",
        tiebreak: str = "shared",
        start_player: str = "seat",
        mods: int = 0,
        diamonds: list[int] | None = None,
        huts: list[tuple[str, int, int]] | None = None,
        gates: int | None = None,
    ) -> None: ...
    @staticmethod
    def action_data(code: int, huts: list[str] | None = None) -> dict[str, object]: ...
    @staticmethod
    def code_of_data(data: dict[str, object], huts: list[str] | None = None) -> int | None: ...
    def legal(self) -> list[int]: ...
    def apply_index(self, index: int) -> None: ...
    def apply_code(self, code: int) -> None: ...
    def clone(self) -> KernelGame: ...
    def play_random(
        self, bots: list[bytes | int], max_actions: int = 100_000, record: bool = False
    ) -> tuple[list[int], list[bytes], bytes, str | None]: ...
    def play_bots(
        self,
        seats: list[bytes | int | tuple[list[float], float, bytes | int]],
        max_actions: int = 100_000,
        record: bool = False,
    ) -> tuple[list[int], list[bytes], bytes, str | None]: ...
    def greedy_values(self, weights: list[float]) -> list[float]: ...
    def summary_json(self) -> str: ...
    @property
    def current_player(self) -> int | None: ...
    @property
    def phase(self) -> str: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def num_players(self) -> int: ...
    @property
    def scores(self) -> list[int]: ...
    @property
    def winners(self) -> list[int]: ...
    @property
    def turn(self) -> int: ...
    def state_json(self) -> str: ...
    def rng_state(self) -> tuple[list[int], int]: ...
    @staticmethod
    def load(
        state: dict[str, object],
        words: list[int],
        index: int,
        passes: int,
        holes: str = "cell",
        tiebreak: str = "shared",
        start_player: str = "seat",
        mods: int = 0,
        diamonds: list[int] | None = None,
        huts: list[tuple[str, int, int]] | None = None,
        gates: int | None = None,
    ) -> KernelGame: ...

class KernelEnv:
    """The environments' action codec and observer of one rule set on the kernel, and one
    session's current decision (kernel/core/src/codec.rs, observe.rs)."""

    def __init__(self, players: int, mods: int, cards: list[str]) -> None: ...
    def fork(self) -> KernelEnv: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def observation_size(self) -> int: ...
    def layout(self) -> list[tuple[str, int, int]]: ...
    def slices(self) -> list[tuple[str, int, int]]: ...
    def load(self, game: KernelGame) -> None: ...
    def prefix(self) -> list[int]: ...
    def legal_ints(self) -> list[int]: ...
    def mask_into(self, out: object) -> None: ...
    def choose(self, i: int) -> tuple[int, int] | None: ...
    def clear_prefix(self) -> None: ...
    def encode(self, code: int) -> list[int] | None: ...
    def observe_into(self, game: KernelGame, seat: int, out: object, prefix: bool = False) -> None: ...
    def observe_agent(self, game: KernelGame, seat: int, obs: object, mask: object, current: bool) -> None: ...

class BatchEnv:
    """A batch of games of one rule set, each with one learner seat and its opponents inside
    the kernel; one `step` steps them all with the GIL released (kernel/py/src/batch.rs)."""

    def __init__(
        self, env: KernelEnv, num_envs: int, max_steps: int | None = None, illegal_reward: float | None = None
    ) -> None: ...
    @property
    def num_envs(self) -> int: ...
    def set_game(self, k: int, game: KernelGame, seat: int, seats: list[object]) -> None: ...
    def step(
        self,
        actions: object,
        obs: object,
        mask: object,
        reward: object,
        terminated: object,
        truncated: object,
        illegal: object,
    ) -> tuple[int, int] | None: ...
    def rewrite(self) -> None:
        """Forget what the observation buffer holds: the next step writes every game's row whole."""

def spiel_next_draw(
    game: KernelGame, index: int, outcomes: Sequence[tuple[int, int | str]]
) -> tuple[int, list[tuple[int | str, float]], list[tuple[int, int | str]]] | None:
    """Play the legal action at `index` with its draws decided by `outcomes`, or the next draw
    it meets (kernel/py/src/spiel.rs, kernel/core/src/draws.rs)."""

def spiel_tensor(
    env: KernelEnv,
    game: KernelGame,
    seat: int,
    out: object,
    loaded: bool,
    pending: Sequence[int],
    drawn: Sequence[int],
    outcomes: int,
    hands: bool,
) -> None:
    """Write `seat`'s OpenSpiel tensor into `out` (kernel/py/src/spiel.rs)."""

def _panic_for_test() -> None: ...
