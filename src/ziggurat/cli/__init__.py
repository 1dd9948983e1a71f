"""The ``ziggurat`` command line: games, play, simulate, replay, render and bench (Typer + Rich)."""
