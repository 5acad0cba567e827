"""The research environments' refusals (:class:`~fanfold.core.errors.Refusal`): an action
index that is not one, an action outside a variant's table, a game with no encoding, an
OpenSpiel game string's parameters that do not go together. Each is a code with parameters,
worded in the terminal's language and on the page like every refusal (``docs/i18n.md``);
its English sentence is the error's message, as before."""

from __future__ import annotations

from fanfold.core.errors import templates

templates(
    {
        "envs.not_in_table": "{action} is not in the action table of this variant",
        "envs.index_out_of_range": "action index {index} is out of range: this variant has "
        "actions 0 to {last}",
        "envs.no_encoding": "{game} has no environment encoding",
        "envs.not_legal_here": "action {number} ({action}) is not legal here: {reason}",
        "envs.not_an_index": "an action is an integer index, not {value}",
        "envs.at_table": "table {table}, seat {seat}: {reason}",
        "envs.not_in_mask": "table {table}, seat {seat}: action {action} is not in the mask",
        "envs.no_card_to_trade": "no card of the kind left to trade with: deal again",
        "envs.fano_joker_prestige": "the Fano environments encode a joker in play by a combat "
        "value (1-7), so they do not cover joker_prestige=true (a Temporary Joker as a "
        "prestige card): play that variant at a table or in the balance lab",
        "envs.options_form": "options are name=value pairs joined by commas, or name:value "
        "pairs joined by semicolons, not {part}",
        "envs.deals_need_position": "deals re-deals the hidden cards of a start position: give "
        "a position of a game with hidden cards",
        "envs.deals_count": "deals is a number of deals, 1 or more, not {deals}",
        "envs.deal_form": "deal is cards or seed, not {form}",
        "envs.no_card_deal": "{game} has no card-by-card deal: use deal=seed",
    }
)
