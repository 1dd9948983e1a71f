"""Tournament games as Ray tasks, on a Ray cluster or on a local Ray instance.

``RayRunner(address)`` with ``address``:

- ``"local"``: start a private Ray instance on this machine (``num_cpus`` workers, default
  every CPU), and stop it when the tournament ends;
- ``"auto"``: join the cluster this machine belongs to (started with ``ray start --head`` /
  ``ray start --address ...``), as Ray's own ``address="auto"``;
- anything else: a cluster address given to ``ray.init(address=...)``, such as
  ``ray://head-node:10001`` (Ray Client) or ``head-node:6379``.

If Ray is already initialised in this process (a caller's own ``ray.init``), that connection
is used and left open. Each game is one task running :func:`ziggurat.arena.runner.play_task`,
so every node needs ziggurat (same version) installed; the records come back with the
outcomes and are written on the machine that runs the tournament.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import Any

from ziggurat.arena.runner import ArenaError, GameOutcome, GameTask, play_task

INSTALL_HINT = "pip install 'ziggurat[cluster]'"


def import_ray() -> ModuleType:
    """The ``ray`` module.

    :raises ArenaError: with the install command when Ray is not installed.
    """
    try:
        return importlib.import_module("ray")
    except ImportError as exc:
        raise ArenaError(f"--ray needs Ray, which is not installed: {INSTALL_HINT}") from exc


class RayRunner:
    """Plays games as Ray tasks (one task per game, one CPU each)."""

    def __init__(self, address: str = "local", num_cpus: int | None = None) -> None:
        if not address:
            raise ArenaError("a Ray address is 'local', 'auto' or a cluster address such as ray://host:10001")
        self.address = address
        self.num_cpus = num_cpus
        self._ray: ModuleType | None = None
        self._started = False

    @property
    def label(self) -> str:
        return "Ray (local instance)" if self.address == "local" else f"Ray cluster {self.address}"

    def connect(self) -> None:
        """Import Ray and start or join the cluster (once).

        :raises ArenaError: when Ray is missing or the cluster cannot be reached.
        """
        if self._ray is not None:
            return
        ray = import_ray()
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            try:
                if self.address == "local":
                    ray.init(num_cpus=self.num_cpus, **kwargs)
                else:
                    ray.init(address=self.address, **kwargs)
            except Exception as exc:  # noqa: BLE001 - Ray raises many kinds; all mean "no cluster"
                raise ArenaError(f"cannot start or reach Ray at {self.address!r}: {exc}") from exc
            self._started = True
        self._ray = ray

    def close(self) -> None:
        """Leave the cluster (stopping the local instance) if this runner joined it."""
        if self._ray is not None and self._started:
            self._ray.shutdown()
        self._ray = None
        self._started = False

    def __enter__(self) -> RayRunner:
        self.connect()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(self, tasks: Sequence[GameTask]) -> Iterator[GameOutcome]:
        """Outcomes in completion order; connects (and disconnects after) if not connected."""
        own = self._ray is None
        self.connect()
        ray = self._ray
        assert ray is not None
        pending: list[Any] = []
        try:
            remote = ray.remote(num_cpus=1)(play_task)
            pending = [remote.remote(task) for task in tasks]
            while pending:
                done, pending = ray.wait(pending, num_returns=len(pending), timeout=0.2)
                if not done:  # nothing finished within the timeout: block for one
                    done, pending = ray.wait(pending, num_returns=1)
                yield from ray.get(done)
        finally:
            for ref in pending:  # stopped early (Ctrl-C, an error): do not leave games running
                ray.cancel(ref)
            if own:
                self.close()
