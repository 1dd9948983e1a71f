"""A PettingZoo AEC environment for every Ziggurat game (needs ``ziggurat[rl]``).

>>> from ziggurat.interop.pettingzoo import env
>>> e = env("mesopotamia-epochs", players=3)
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs)
['action_mask', 'observation']

- Agents are ``player_0`` .. ``player_{n-1}`` (seat order); ``agent_selection`` is the seat to
  move. Seats may move several times in a row (turns are decomposed into atomic decisions).
- Actions are indices of the game's action codec (:mod:`ziggurat.interop.codec`): one
  ``Discrete(codec.num_actions)`` space per agent. Observations are
  ``{"observation": float32 vector of the agent's view (ziggurat.interop.observe),
  "action_mask": int8 mask of its legal indices}`` (the mask is all zeros when it is not that
  agent's decision). ``info`` is empty.
- Chance nodes are resolved inside with the environment's RNG (``np_random``, seeded by
  ``reset(seed=...)``, so a seed reproduces the game); decisions with a single legal action
  are applied by the engine itself. So ``step`` only ever waits for a real choice.
- Rewards are zero until the end, then ``state.returns()`` (1 for the winner, shared wins
  split). Terminations come at the end of the game; truncation happens only with the
  ``max_steps`` argument (every agent truncated after that many player decisions).
- ``render()``: ``"ansi"`` is the game's terminal board (``render_text``) as a string with ANSI
  colours; ``"rgb_array"`` is that same board drawn as an RGB image (a ``uint8`` array of shape
  ``(height, width, 3)``), in DejaVu Sans Mono (shipped with matplotlib) with the terminal's
  colours. Both show the spectator's view: public information only.

``env.state`` is the underlying :class:`ziggurat.engine.State`, ``env.game`` the game and
``env.codec`` / ``env.encoder`` the action codec and view encoder.
"""

from __future__ import annotations

import functools
import io
import random
from typing import TYPE_CHECKING, Any

import gymnasium
import numpy as np
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from ziggurat.engine.contract import CHANCE, Game, State, sample_chance
from ziggurat.engine.registry import load
from ziggurat.interop.codec import ActionCodec, LegalTable, codec_for
from ziggurat.interop.observe import ViewEncoder, encoder_for

if TYPE_CHECKING:
    import numpy.typing as npt

RENDER_WIDTH = 100  # terminal columns of the rendered board


class ZigguratEnv(AECEnv):  # type: ignore[misc]
    """One Ziggurat game as a PettingZoo AEC environment (see the module docstring)."""

    metadata: dict[str, Any] = {
        "render_modes": ["ansi", "rgb_array"],
        "name": "ziggurat_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }
    agent_selection: str

    def __init__(self, game: Game, render_mode: str | None = None, max_steps: int | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r}: use one of {self.metadata['render_modes']} or None"
            )
        if max_steps is not None and (not isinstance(max_steps, int) or max_steps < 1):
            raise ValueError(f"max_steps={max_steps!r}: must be a positive integer or None")
        self.game = game
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.metadata = dict(self.metadata, name=f"ziggurat_{game.game_id.replace('-', '_')}_v0")
        self.codec: ActionCodec = codec_for(game)
        self._zeros = np.zeros(self.codec.num_actions, dtype=np.int8)
        self.encoder: ViewEncoder = encoder_for(game)
        self.possible_agents = [f"player_{i}" for i in range(game.num_players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        # one space object per agent (and per env): seeding one never disturbs another
        self._action_spaces = {
            a: gymnasium.spaces.Discrete(self.codec.num_actions) for a in self.possible_agents
        }
        low, high = self.encoder.bounds()
        self._observation_spaces = {
            a: gymnasium.spaces.Dict(
                {
                    "observation": gymnasium.spaces.Box(low, high, dtype=np.float32),
                    "action_mask": gymnasium.spaces.Box(0, 1, (self.codec.num_actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.state: State = game.new_initial_state()
        self.steps = 0
        self.np_random, self.np_random_seed = seeding.np_random(None)
        self._draw = _Draw(self)
        self._table: LegalTable | None = None
        """The legal list of the agent to move (``None`` when no agent is to move)."""
        self._player = -1
        """The seat of ``agent_selection`` while an agent is to move."""

    # -- spaces -------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._action_spaces[agent]

    # -- life cycle ---------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` seeds the chance RNG (``options`` is accepted and unused)."""
        if seed is not None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        self.state = self.game.new_initial_state()
        self.steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._after_move(self._advance())

    def step(self, action: Any) -> None:
        table = self._table
        if table is None:  # no agent to move: the game is over or truncated
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
        agent = self.agent_selection
        if action is None:
            raise ValueError(f"{agent} is to move: step(None) is only for terminated or truncated agents")
        index = int(action)
        text = None if table is None else table.text_of(index)  # None: not a legal index now
        if text is None:
            raise ValueError(
                f"action {index} is not legal for {agent} now (legal: {self.codec.legal_indices(self.state)[:10]} ...)"
            )
        self._cumulative_rewards[agent] = 0.0
        s = self.state
        s.apply(text, self._player)  # the seat to move: refused otherwise
        self.steps += 1
        # what _advance does, inlined (every step runs it: one call less per step)
        draw = self._draw
        while True:
            player = s.current_player()
            if player == CHANCE:
                s.apply(sample_chance(s, draw))
                continue
            if player < 0:
                break
            legal = s.legal_actions()
            if len(legal) != 1:
                if self.max_steps is None or self.steps < self.max_steps:
                    # the usual step: another decision of the game. Rewards, terminations,
                    # truncations and infos do not change (zero, False, False, {} until the end)
                    self.agent_selection = self.possible_agents[player]
                    self._player = player
                    self._table = self.codec.legal_table(s, legal)
                    return
                break
            s.apply(legal[0])
        self._after_move(player)

    def _advance(self) -> int:
        """Play chance outcomes and single-choice decisions until a player must choose: that
        player, or ``TERMINAL``.

        A chance outcome is the first whose running sum of probabilities exceeds one draw of
        ``np_random`` (``sample_chance``, which bisects the game's running sums where it keeps
        them instead of scanning every outcome: the same pick). ``step`` does the same inline."""
        s = self.state
        while True:
            player = s.current_player()
            if player == CHANCE:
                s.apply(sample_chance(s, self._draw))
                continue
            if player < 0:
                return player
            legal = s.legal_actions()
            if len(legal) != 1:
                return player
            s.apply(legal[0])

    def _after_move(self, player: int) -> None:
        s = self.state
        self._table = None
        if player >= 0 and (self.max_steps is None or self.steps < self.max_steps):
            self.agent_selection = self.possible_agents[player]
            self._player = player
            self._table = self.codec.legal_table(s)
            return  # every reward is 0: nothing to accumulate
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if player < 0:
            for a, r in zip(self.possible_agents, s.returns(), strict=True):
                if a in self.rewards:
                    self.rewards[a] = float(r)
                    self.terminations[a] = True
        else:
            for a in self.agents:
                self.truncations[a] = True
        if not hasattr(self, "agent_selection"):
            self.agent_selection = self.agents[0]
        self._accumulate_rewards()

    # -- observations ---------------------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat[agent]
        obs = self.encoder.encode(self.state.view(seat), seat)
        table = self._table
        if table is not None and agent == self.agent_selection:
            mask = self.codec.table_mask(table)
        else:
            mask = self._zeros.copy()
        return {"observation": obs, "action_mask": mask}

    def action_mask(self, agent: str | None = None) -> npt.NDArray[np.int8]:
        """``observe(agent)["action_mask"]`` without the observation (default: the agent to
        move): for a loop that needs only the legal indices."""
        table = self._table
        if table is not None and (agent is None or agent == self.agent_selection):
            kept = table.shared_mask  # a small codec's kept mask, once made: copied here
            return self.codec.table_mask(table) if kept is None else kept.copy()
        # a KeyError for an unknown agent, as observe gives
        self._seat[self.agent_selection if agent is None else agent]
        return self._zeros.copy()

    def legal_actions(self) -> list[str]:
        """The texts of the legal actions of the agent to move (for display and debugging)."""
        return [] if self._table is None else list(self.state.legal_actions())

    # -- rendering ------------------------------------------------------------------------------
    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() called without a render_mode; pass render_mode='ansi' or 'rgb_array'"
            )
            return None
        board = _render_text(self.game, self.state.view(None))
        if self.render_mode == "ansi":
            return _to_ansi(board)
        return _to_rgb(board)

    def close(self) -> None:
        """Nothing is held open (no window, no process)."""

    def __str__(self) -> str:
        return f"ZigguratEnv({self.game.game_id}, players={self.game.num_players})"


def env(
    game_id: str,
    players: int | None = None,
    render_mode: str | None = None,
    max_steps: int | None = None,
    **options: Any,
) -> ZigguratEnv:
    """A PettingZoo AEC environment of ``game_id`` with ``players`` seats (default: the least)
    and game ``options`` (as for :func:`ziggurat.load`)."""
    return ZigguratEnv(
        load(game_id, players=players, **options), render_mode=render_mode, max_steps=max_steps
    )


class _Draw(random.Random):
    """The draws of an env's ``np_random`` (replaced by ``reset(seed=...)``) as a
    ``random.Random``, for :func:`sample_chance`."""

    def __init__(self, env: ZigguratEnv) -> None:
        super().__init__(0)
        self.env = env

    def random(self) -> float:
        return float(self.env.np_random.random())


# --------------------------------------------------------------------------- rendering helpers


def _render_text(game: Game, view: dict[str, Any]) -> Any:
    hook = game.hooks.render_text
    if hook is None:
        raise ValueError(f"{game.game_id} has no terminal board to render (no render_text hook)")
    return hook.get().render_board(view, None, RENDER_WIDTH, legend=False)


def _console(file: io.StringIO, color_system: str | None) -> Any:
    from rich.console import Console

    system: Any = color_system
    return Console(
        file=file, width=RENDER_WIDTH, color_system=system, force_terminal=color_system is not None
    )


def _to_ansi(board: Any) -> str:
    buf = io.StringIO()
    _console(buf, "256").print(board)
    return buf.getvalue()


_BG = (24, 24, 24)
_FG = (220, 220, 220)


@functools.cache
def _font(size: int) -> Any:
    from matplotlib import font_manager
    from PIL import ImageFont

    return ImageFont.truetype(font_manager.findfont("DejaVu Sans Mono"), size)


def _to_rgb(board: Any, size: int = 14) -> np.ndarray:
    """The board as an RGB image: each cell of the terminal drawn with its colours."""
    from PIL import Image, ImageDraw
    from rich.segment import Segment

    console = _console(io.StringIO(), "truecolor")
    lines = console.render_lines(board, console.options, pad=False)
    font = _font(size)
    cw, ch = float(font.getlength("M")), size + 4  # monospace: every cell is one advance wide
    cols = max((Segment.get_line_length(line) for line in lines), default=1)
    img = Image.new("RGB", (int(max(1, cols) * cw) + 8, max(1, len(lines)) * ch + 8), _BG)
    draw = ImageDraw.Draw(img)
    for row, line in enumerate(lines):
        col = 0
        y = 4 + row * ch
        for seg in line:
            if seg.control or not seg.text:
                continue
            x = 4 + col * cw
            cells = seg.cell_length
            style = seg.style
            fg, bg = _FG, None
            if style is not None:
                if style.color is not None and not style.color.is_default:
                    fg = style.color.get_truecolor()
                if style.bgcolor is not None and not style.bgcolor.is_default:
                    bg = style.bgcolor.get_truecolor()
                if style.reverse:
                    fg, bg = (bg or _BG), fg
            if bg is not None:
                draw.rectangle([x, y, x + cells * cw, y + ch], fill=tuple(bg))
            draw.text((x, y), seg.text, font=font, fill=tuple(fg))
            col += cells
    return np.asarray(img, dtype=np.uint8).copy()


__all__ = ["ZigguratEnv", "env"]
