"""The wire models: every HTTP body and socket message as a typed msgspec ``Struct``.

Requests are decoded into these models (with the same plain-English refusals as ever);
answers are built from them and encoded by :mod:`euchre.server.core.encoder`; ``/openapi.json``
and ``/asyncapi.json`` are generated from them. Enumerations come from the code's own
constants (rules presets, computer levels), so they cannot drift.
"""
