"""Mesopotamia: Epochs (History-of-the-World style, five Epochs), 2 to 5 players.

Rules spec: ``docs/rules/mesopotamia-epochs.md`` (rule numbers E, R, D, C, X are cited by the code
and the tests). Map, People cards and rules configuration are package data files
(``map.json``, ``peoples.json``, ``rules.json``); see ``docs/mesopotamia-epochs.md``.
"""
