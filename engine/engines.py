"""Pick an engine by name: "fast" (dekal.fast, the default) or "ref" (dekal_ref, the reference).

Both are modules exposing the same game API (the GameAPI protocol below): the CLI's
`--engine fast|ref` and the conformance runner drive either through it. States are opaque
to callers: each engine reads only the states it made, and format_position is how two
engines' states are compared.
"""

from __future__ import annotations

from typing import Any, Protocol

from dekal_ref.actions import Action
from dekal_ref.deal import Deal as DealType
from dekal_ref.notation import Grid, Push
from dekal_ref.ranking import Standing
from dekal_ref.scoring import Score
from dekal_ref.state import Rules as RulesType

ENGINE_NAMES = ("fast", "ref")
DEFAULT_ENGINE = "fast"


class GameAPI(Protocol):
    """What every engine provides (the names and signatures of dekal_ref's game API)."""

    @property
    def Rules(self) -> type[RulesType]: ...  # noqa: N802 (the module attribute's name)
    @property
    def Deal(self) -> type[DealType]: ...  # noqa: N802

    def new_game(
        self, rules: RulesType, deal: DealType, first_player: int | None = None
    ) -> Any: ...
    def reveal(self, state: Any, seat: int, cell: int) -> Any: ...
    def take(self, state: Any, seat: int, card: int) -> Any: ...
    def push(self, state: Any, seat: int, move: Push) -> Any: ...
    def start_round(self, state: Any, deal: DealType) -> Any: ...
    def apply(self, state: Any, action: Action) -> Any: ...
    def legal_actions(self, state: Any) -> list[Action]: ...
    def format_position(self, state: Any, public: bool = False) -> str: ...
    def parse_position(self, text: str) -> Any: ...
    def score_grid(self, grid: Grid) -> Score: ...
    def cancelled_cells(self, grid: Grid) -> frozenset[int]: ...
    def push_card(self, grid: Grid, push: Push, card: int, variant: str = "slide") -> Grid: ...
    def legal_pushes(self, hole: int, variant: str = "slide") -> list[Push]: ...
    def round_scores(self, state: Any) -> list[Score]: ...
    def ranking(self, state: Any) -> list[Standing]: ...
    def winners(self, state: Any) -> list[int]: ...


def get_engine(name: str = DEFAULT_ENGINE) -> GameAPI:
    """The game API of engine `name` ("fast" or "ref"); ValueError for any other name.

    Both modules are checked against GameAPI statically (mypy) by the assignments below.
    """
    engine: GameAPI
    if name == "fast":
        from dekal import fast

        engine = fast
    elif name == "ref":
        import dekal_ref

        engine = dekal_ref
    else:
        raise ValueError(f"unknown engine {name!r}: choose one of {', '.join(ENGINE_NAMES)}")
    return engine
