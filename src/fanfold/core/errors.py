"""The error hierarchy.

Every error fanfold raises for bad input is a :class:`FanfoldError`. The ones a player can
cause by typing are :class:`ValueError` subclasses, so callers that only know the standard
library still catch them. None of them is raised after a state has changed: states are
immutable and an action is checked before anything new is built.
"""


class FanfoldError(Exception):
    """Base class of every error fanfold raises on purpose."""


class NotationError(FanfoldError, ValueError):
    """Text that does not parse: a malformed action, position, card or record."""


class IllegalActionError(FanfoldError, ValueError):
    """A well-formed action that the rules do not allow in this position."""


class ConfigError(FanfoldError, ValueError):
    """A variant configuration that is inconsistent or out of range."""


class UnknownGameError(FanfoldError, KeyError):
    """A game id or variant name that is not registered."""

    def __str__(self) -> str:  # KeyError quotes its message; show it plainly.
        return str(self.args[0]) if self.args else ""


class UnknownAgentError(FanfoldError, KeyError):
    """An agent name that is not registered, or not for this game."""

    def __str__(self) -> str:  # KeyError quotes its message; show it plainly.
        return str(self.args[0]) if self.args else ""


class TurnError(IllegalActionError):
    """An action submitted by a seat that is not the one to decide now."""


class StaleVersionError(FanfoldError, ValueError):
    """An action submitted against a version of a table that has since moved on."""


class RecordError(FanfoldError, ValueError):
    """A game record that cannot be read or does not replay."""
