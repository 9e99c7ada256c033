"""Build hook: the open-hand solver's hot loop as an optional C extension.

If no compiler is available the build still succeeds and euchre falls back to the
pure-Python solver (slower, same answers).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "euchre.bots._solver",
            sources=["src/euchre/bots/_solver.c"],
            extra_compile_args=["-O3"],
            optional=True,
        )
    ]
)
