"""Declared invariants of Mesopotamia: Epochs (the conformance suite checks them at every ply).

- **Map** (E8.8, E13.1, E9.1, E10.1): one People per area, 1 to ``stack_limit`` tribes, never
  in the sea or an uninhabited area; ``held`` agrees with the areas.
- **Tribes** (R43: the supply is unlimited, so conservation is a ledger): for every People,
  tribes on the map (plus an attacking tribe in combat) = tribes entered - tribes removed.
- **Cards** (E1.4, E1.5, E3.6): every card is in exactly one place (a later Epoch's deck, this
  Epoch's deck, the drawer's hand, a player, or set aside); each player holds one card per
  dealt Epoch; undrawn and set-aside cards are unseen.
- **VP** (E14.4): each player's VP is the sum of what their Peoples scored; only Peoples in play
  score, and their cards are face up.
"""

from __future__ import annotations

from ziggurat.games.mesopotamia_epochs.state import EpochsState


def check(s: EpochsState) -> list[str]:
    bad: list[str] = []
    _check_map(s, bad)
    _check_cards(s, bad)
    _check_vp(s, bad)
    return bad


def _check_map(s: EpochsState, bad: list[str]) -> None:
    m = s.rules.map
    held = [0] * len(s.held)
    on_map = [0] * len(s.held)
    limit = s.rules.stack_limit
    for a in range(m.size):
        p, c = s.occ[a], s.cnt[a]
        if (p < 0) != (c == 0):
            bad.append(f"area {m.ids[a]}: holder {p} with {c} tribes")
            continue
        if p < 0:
            continue
        if not m.placeable[a]:
            bad.append(f"tribes in {m.kinds[a]} area {m.ids[a]} (E9.1, E10.1)")
        if not 0 < c <= limit:
            bad.append(f"area {m.ids[a]} holds {c} tribes (E13.1)")
        held[p] |= 1 << a
        on_map[p] += c
    if held != s.held:
        bad.append("held areas disagree with the map")
    pend = s.pending
    fighting = s.active if pend is not None and pend[0] == "combat" else -1
    for p in range(len(s.held)):
        alive = on_map[p] + (1 if p == fighting else 0)
        if alive != s.entered[p] - s.removed[p] or s.removed[p] < 0:
            bad.append(
                f"tribes of {s.rules.peoples.ids[p]} not conserved: {alive} on the map, "
                f"{s.entered[p]} entered, {s.removed[p]} removed"
            )
        if s.entered[p] and (s.owner[p] < 0 or not s.public[p]):
            bad.append(f"{s.rules.peoples.ids[p]} has played but is not in play face up (E3.7)")
    if s.pool < 0:
        bad.append("negative pool")


def _check_cards(s: EpochsState, bad: list[str]) -> None:
    peoples = s.rules.peoples
    ce = peoples.card_epoch
    places = [0] * peoples.size
    for p in s.deck:
        places[p] += 1
        if ce[p] != s.epoch or s.known[p]:
            bad.append(f"deck card {peoples.ids[p]} is not an unseen card of this Epoch")
    for p in s.set_aside:
        places[p] += 1
        if ce[p] > s.epoch or s.known[p]:
            bad.append(f"set-aside card {peoples.ids[p]} is seen or from a later Epoch")
    pend = s.pending
    if pend is not None and pend[0] == "keep":
        places[pend[1]] += 1
    for p, o in enumerate(s.owner):
        if o >= 0:
            places[p] += 1
            if ce[p] > s.epoch:
                bad.append(f"{peoples.ids[p]} dealt before its Epoch")
            if not s.known[p] >> o & 1 and not (s.phase == "allocation" and ce[p] == s.epoch):
                bad.append(f"{peoples.ids[p]}: its holder does not know it after the deal (E3.5)")
    for p in range(peoples.size):
        want = 0 if ce[p] > s.epoch else 1
        if places[p] != want:
            bad.append(f"card {peoples.ids[p]} is in {places[p]} places, not {want}")
    dealt_epochs = s.epoch - (1 if s.phase == "allocation" else 0)
    counts = [[0] * (peoples.epochs + 1) for _ in range(s.n)]
    for p, o in enumerate(s.owner):
        if o >= 0:
            counts[o][ce[p]] += 1
    for seat in range(s.n):
        for e in range(1, dealt_epochs + 1):
            if counts[seat][e] != 1:
                bad.append(f"seat {seat} holds {counts[seat][e]} cards of Epoch {e} (E3.6)")
        if s.phase == "allocation" and counts[seat][s.epoch] > 1:
            bad.append(f"seat {seat} received two cards this Epoch (R9)")
        if s.received[seat] >= 0 and s.owner[s.received[seat]] != seat:
            bad.append(f"seat {seat}'s card of this Epoch is held by someone else")


def _check_vp(s: EpochsState, bad: list[str]) -> None:
    totals = [0] * s.n
    for p, o in enumerate(s.owner):
        if o >= 0:
            totals[o] += s.pvp[p]
        elif s.pvp[p]:
            bad.append(f"{s.rules.peoples.ids[p]} scored without being in play")
        if s.pvp[p] and not s.public[p]:
            bad.append(f"{s.rules.peoples.ids[p]} scored but its card is face down (E3.7)")
    if totals != s.vp:
        bad.append(f"VP {s.vp} are not the sum of the Peoples' scores {totals} (E14.4)")
    if min(s.vp) < 0:
        bad.append("negative VP")
