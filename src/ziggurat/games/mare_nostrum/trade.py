"""The Trade phase (N2.1-N2.10, R3-R6, R41): the Trade token and its value (D5), who takes part
(Antigone's offer size, D6), secret offers committed one token at a time (D7, section 7.2), the
starter (D8), the draft with its one back-and-forth limit (D9), leftovers and the imbalance fix
(D10)."""

from __future__ import annotations

from typing import Any, Final

from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum import buy_place

State = dict[str, Any]
LETTERS = "abc"


def next_offerer(d: State) -> int:
    """R4: offers are committed in seat order among the taking-part players."""
    t: dict[str, Any] = d["trade"]
    parts: dict[str, int] = t["parts"]
    offers: list[list[str]] = t["offers"]
    n: int = d["n"]
    for seat in range(n):  # seat order, the parts' keys being the seats as texts
        size = parts.get(_KEYS[seat])
        if size is not None and len(offers[seat]) < size:
            return seat
    raise AssertionError("no offerer")


_KEYS: Final = tuple(str(seat) for seat in range(16))
"""The texts of seat numbers, the keys of a trade's ``parts``."""


# ---- legal actions


def token_legal(d: State) -> list[str]:
    """D5 / N2.1: an available token, either face."""
    faces = d["opts"]["trade_token_faces"]
    out: list[str] = []
    for i, used in enumerate(d["tokens_used"]):
        if not used:
            for f in sorted(set(faces[i])):
                out.append(f"token {LETTERS[i]} {f}")
    return out


def size_legal(d: State) -> list[str]:
    """D6 / N2.2.3."""
    t = d["trade"]
    seat = int(t["sizing"][0])
    top = min(t["v"], B.n_tokens(d, seat))
    return [f"offer size {k}" for k in range(top + 1)]


def offer_legal(d: State) -> list[str]:
    """D7 / N2.3."""
    seat = next_offerer(d)
    texts = _OFFER_TEXTS
    out: list[str] = []
    for tok in sorted(d["res"][seat]):
        text = texts.get(tok)
        if text is None:
            text = texts[tok] = f"offer {tok}"
        out.append(text)
    return out


_OFFER_TEXTS: Final[dict[str, str]] = {}
"""The ``offer`` action of each token, made once: the offer's legal list is asked after every
token offered."""


def starter_legal(d: State) -> list[str]:
    """D8 / N2.4, R5."""
    return [f"starter {s}" for s in sorted(int(x) for x in d["trade"]["parts"])]


def takes(d: State) -> list[str]:
    """D9 / N2.5-N2.6 (R3: only the last two takes count)."""
    t: dict[str, Any] = d["trade"]
    c: int = t["chooser"]
    offers: list[list[str]] = t["offers"]
    taken: list[list[int]] = t["takes"]
    out: list[str] = []
    for x in sorted([int(s) for s in t["parts"]]):
        offer = offers[x]
        if x == c or not offer:
            continue
        if len(taken) >= 2 and taken[-2] == [c, x] and taken[-1] == [x, c]:
            continue
        texts = _take_texts(x)
        for tok in sorted(set(offer)):
            text = texts.get(tok)
            if text is None:
                text = texts[tok] = f"take {tok} from {x}"
            out.append(text)
    return out


_TAKE_TEXTS: Final[list[dict[str, str]]] = []
"""The ``take`` actions by seat taken from and token, made once: the draft's legal list is
asked after every take."""


def _take_texts(seat: int) -> dict[str, str]:
    while len(_TAKE_TEXTS) <= seat:
        _TAKE_TEXTS.append({})
    return _TAKE_TEXTS[seat]


def give_legal(d: State) -> list[str]:
    """D10 / N2.9."""
    seat = int(d["trade"]["starter"])
    return [f"give {tok}" for tok in sorted(d["res"][seat])]


# ---- effects


def trade_start(d: State) -> None:
    d["stage"] = "trade_token"


def token_effect(d: State, w: list[str]) -> None:
    i = LETTERS.index(w[1])
    v = int(w[2])
    B.put(d, "tokens_used", i, True)
    if all(d["tokens_used"]):
        d["tokens_used"] = [False, False, False]
    t: dict[str, Any] = {
        "v": v,
        "token": [i, v],
        "parts": {},
        "offers": [[] for _ in range(d["n"])],
        "received": [[] for _ in range(d["n"])],
        "takes": [],
        "starter": None,
        "chooser": None,
        "revealed": False,
        "sizing": [],
    }
    d["trade"] = t
    for s in range(d["n"]):
        if B.has(d, s, "antigone") and v > 0 and B.n_tokens(d, s) > 0:
            t["sizing"].append(s)
        elif v > 0 and B.n_tokens(d, s) >= v:
            t["parts"][str(s)] = v
    d["stage"] = "trade_size" if t["sizing"] else "trade_offer"
    if not t["sizing"]:
        _offers_ready(d)


def size_effect(d: State, w: list[str]) -> None:
    t = d["trade"]
    seat = int(t["sizing"].pop(0))
    if int(w[2]) > 0:
        t["parts"][str(seat)] = int(w[2])
    if not t["sizing"]:
        _offers_ready(d)


def _offers_ready(d: State) -> None:
    """N2.2.4: no trade if v = 0 or fewer than two take part."""
    t = d["trade"]
    if t["v"] == 0 or len(t["parts"]) < 2:
        _close(d)
        return
    d["stage"] = "trade_offer"


def offer_effect(d: State, w: list[str]) -> None:
    seat = next_offerer(d)
    t = d["trade"]
    B.add_res(d, seat, w[1], -1)
    t["offers"][seat].append(w[1])
    t["offers"][seat].sort()
    if all(len(t["offers"][int(s)]) == k for s, k in t["parts"].items()):
        t["revealed"] = True
        leader = d["titles"]["trade"]
        if str(leader) in t["parts"]:
            _begin(d, int(leader))
        else:
            d["stage"] = "trade_starter"


def _begin(d: State, starter: int) -> None:
    t = d["trade"]
    t["starter"] = starter
    t["chooser"] = starter
    d["stage"] = "trade_draft"


def starter_effect(d: State, w: list[str]) -> None:
    _begin(d, int(w[1]))


def take_effect(d: State, w: list[str]) -> None:
    t = d["trade"]
    c, x, tok = int(t["chooser"]), int(w[3]), w[1]
    t["offers"][x].remove(tok)
    t["received"][c].append(tok)
    t["received"][c].sort()
    t["takes"].append([c, x])
    t["chooser"] = x


def draft_end(d: State) -> None:
    """N2.7-N2.9."""
    t = d["trade"]
    for s in range(d["n"]):
        for tok in t["offers"][s]:
            B.add_res(d, s, tok)
        t["offers"][s] = []
    starter = int(t["starter"])
    if int(t["chooser"]) != starter:
        for tok in t["received"][starter]:
            B.add_res(d, starter, tok)
        t["received"][starter] = []
        d["stage"] = "trade_give"
    else:
        _close(d)


def give_effect(d: State, w: list[str]) -> None:
    t = d["trade"]
    B.add_res(d, int(t["starter"]), w[1], -1)
    t["received"][int(t["chooser"])].append(w[1])
    _close(d)


def _close(d: State) -> None:
    """N2.10, then the Buy phase."""
    t = d["trade"]
    for s in range(d["n"]):
        for tok in t["offers"][s] + t["received"][s]:
            B.add_res(d, s, tok)
    d["last_trade"] = {"v": t["v"], "token": t["token"]}
    d["trade"] = None
    buy_place.buy_start(d)
