"""Ply's exceptions. Every error Ply raises is a ``ply.Error``, with the message the ``ply``
command would print."""


class Error(Exception):
    """Any error from Ply."""


class SpecError(Error, ValueError):
    """A bad agent spec, game name, game option or argument value."""


class NotationError(Error, ValueError):
    """Text or JSON that is not a well-formed action or position."""


class IllegalMoveError(Error, ValueError):
    """A well-formed action the rules do not allow here (or a request the position does not
    allow, such as a move once the game is over)."""


class ArgumentError(Error, TypeError):
    """An argument of the wrong Python type."""
