"""Sub-commands of ``kibitz``. Each module defines ``register(subparsers)``, which adds its parser and
sets ``run=`` to a function taking the parsed arguments and returning the exit status."""

COMMAND_MODULES = [
    "score",
    "simulate",
    "demo",
    "play",
    "recognize",
    "live",
    "mat",
    "eval_vision",
    "settle",
]
