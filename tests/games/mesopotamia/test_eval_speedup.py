"""The heuristic evaluation's shortcuts (bots_eval) give exactly the plain values: values
remembered per decision by position key, site scans that stop early (a partner's walk only
lowers a value, M8.2), and the nearest-sites lists kept with the distance maps across
decisions."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from meso_helpers import heuristic_decisions

from ziggurat.games.mesopotamia import bots_eval as E
from ziggurat.games.mesopotamia.bots_model import Board, Distances, Mine, simulate
from ziggurat.games.mesopotamia.notation import decode


def _decisions(players: int, seed: int, every: int) -> Iterator[tuple[Board, Distances, list[Mine]]]:
    """Boards of a seeded heuristic game, each with its distances and the positions after
    every legal action (and after ending Phase I there)."""
    dist = Distances()
    for ply, state, who, legal in heuristic_decisions(players, seed, 700):
        if ply % every or len(legal) < 2:
            continue
        b = Board(state.view(who), who)
        dist.update(b)
        m0 = Mine(b)
        out = [m0]
        for a in legal:
            if a.startswith("play"):
                continue
            m = simulate(b, m0, decode(a))
            if m is not None:
                ended = simulate(b, m, ("end",))
                out += [m] if ended is None else [m, ended]
        yield b, dist, out


@pytest.mark.slow
def test_remembered_and_pruned_values_equal_plain_ones() -> None:
    checked = 0
    for players, seed in ((2, 4), (3, 7), (4, 2)):
        for b, dist, positions in _decisions(players, seed, every=9):
            ctx = E.Ctx(b, dist)
            full = E.Ctx(b, dist)
            full.prune = False  # every site scanned, in the order of the sites
            for m in positions:
                plain = E._evaluate(E.Ctx(b, dist), m)
                assert E.evaluate(ctx, m) == plain
                assert E._evaluate(full, m) == plain
                checked += 1
            for m in positions:  # now remembered
                assert E.evaluate(ctx, m) == E._evaluate(E.Ctx(b, dist), m)
            assert ctx.w.k >= 0 and ctx.w.w_partner >= 0 and ctx.prune
    assert checked > 1000


def test_nearest_sites_kept_across_decisions_M9() -> None:
    checked = 0
    for b, dist, positions in _decisions(3, 5, every=4):
        ctx = E.Ctx(b, dist)
        for holy, sites in ((False, list(ctx.hut_sites)), (True, ctx.holy_sites)):
            for c in {t[0] for m in positions for t in m.tribes} | set(b.wood) | set(b.stone):
                want = sorted((dist.d(c, s, True), s) for s in sites)
                assert ctx.sites_by_distance(c, holy) == want
                checked += 1
    assert checked > 200
