"""Fan patience position notation: the 18 fans, then the four foundations.

A position is the fans bottom to top joined by ``/`` (``-`` for an empty fan), a space, then
the top rank of the C, D, H and S foundations (``-`` for none):
``4C2C4S/3D7CAD/.../3H A---``. Boards in fc-solve's format are in
:mod:`fanfold.games.fan.deals`.
"""

from __future__ import annotations

from fanfold.core.cards import Card
from fanfold.core.errors import NotationError, Refusal, templates
from fanfold.games.fan.config import FanConfig
from fanfold.games.fan.deals import NUM_FANS
from fanfold.games.fan.state import FanState, make_state

#: The notation's errors (:class:`~fanfold.core.errors.Refusal`), worded on the play
#: server's page from the same templates translated.
templates(
    {
        "fan.not_a_position": "'{text}' is not a Fan position: write the 18 fans bottom to "
        "top joined by '/' ('-' for an empty fan), a space, then the C, D, H, S foundation "
        "ranks ('-' for none), e.g. '4C2C4S/3D7CAD/.../3H ----'",
        "fan.not_foundations": "'{text}' is not four foundation ranks: one of -A23456789TJQK "
        "for each of C, D, H and S",
        "fan.not_a_fan": "fan {fan} ('{text}') must be cards of two characters each, such as "
        "4C2C4S, or '-' when empty",
    }
)

#: Foundation ranks as written in the position notation: ``-`` for an empty foundation.
FOUNDATION_LETTERS = "-A23456789TJQK"


def format_position(state: FanState) -> str:
    """The one-line position: fans bottom to top joined by ``/`` (``-`` for an empty fan),
    then the top rank of the C, D, H and S foundations (``-`` for none), e.g.
    ``4C2C4S/3D7CAD/.../3H ----``."""
    fans = "/".join("".join(str(card) for card in fan) or "-" for fan in state.fans)
    home = "".join(FOUNDATION_LETTERS[rank] for rank in state.foundations)
    return f"{fans} {home}"


def parse_position(text: str, config: FanConfig) -> FanState:
    """Read the one-line position notation (see :func:`format_position`)."""
    parts = text.split()
    if len(parts) < 2:
        raise NotationError(Refusal("fan.not_a_position", text=text))
    home_text = parts[-1]
    fans_text = "".join(parts[:-1])
    if len(home_text) != 4 or any(letter not in FOUNDATION_LETTERS for letter in home_text):
        raise NotationError(Refusal("fan.not_foundations", text=home_text))
    foundations = tuple(FOUNDATION_LETTERS.index(letter) for letter in home_text)
    fan_texts = fans_text.split("/")
    if len(fan_texts) != NUM_FANS:
        raise NotationError(Refusal("fan.fan_count", fans=NUM_FANS, count=len(fan_texts)))
    fans: list[tuple[Card, ...]] = []
    for number, fan_text in enumerate(fan_texts, start=1):
        if fan_text == "-":
            fans.append(())
            continue
        if not fan_text or len(fan_text) % 2:
            raise NotationError(Refusal("fan.not_a_fan", fan=number, text=fan_text))
        fans.append(tuple(Card.parse(fan_text[i : i + 2]) for i in range(0, len(fan_text), 2)))
    return make_state(
        config, fans, (foundations[0], foundations[1], foundations[2], foundations[3])
    )
