"""Limits of NOTATION.md. Each breach raises ``DiceLimitError`` (a ``DiceError``) with a position."""

MAX_LENGTH = 1_000  # characters of input
MAX_DICE = 10_000  # dice rolled by one expression, explosions and rerolls included
MAX_FACES = 1_000_000  # faces of one die
MAX_EXPLOSIONS = 100  # explosions / rerolls of one die (then it stops, and the result says so)
MAX_DEPTH = 64  # nesting of brackets, groups, functions, signs and powers
MAX_REPEAT = 100  # repetition count (6#4d6kh3, %roll -n 6)
MAX_DIGITS = 18  # digits of one number literal
MAX_ABS = 10**30  # magnitude of any intermediate value
