"""Bridges to other programs' euchre: :mod:`euchre.interop.openspiel` for DeepMind's OpenSpiel.

These modules sit outside the engine (they import it and the bots, never the other way).
"""
