"""Research interfaces: action codecs, observation encoders, PettingZoo and OpenSpiel.

Nothing here is imported by ``import ziggurat``: these modules need the optional extras
(``pip install ziggurat[rl]`` for PettingZoo, ``ziggurat[spiel]`` for OpenSpiel) and import
NumPy. Submodules (``docs/interop.md``, ``docs/openspiel.md``):

- :mod:`ziggurat.interop.codec`: ``codec_for(game)``, integer ids of actions and chance
  outcomes (one codec per game in :mod:`ziggurat.interop.codecs`);
- :mod:`ziggurat.interop.observe`: ``encoder_for(game)``, fixed-size float vectors of views
  (one encoder per game in :mod:`ziggurat.interop.observers`);
- :mod:`ziggurat.interop.pettingzoo`: ``env(game_id, players=N, ...)``, a PettingZoo AEC env;
- :mod:`ziggurat.interop.openspiel`: the games as OpenSpiel Python games.
"""
