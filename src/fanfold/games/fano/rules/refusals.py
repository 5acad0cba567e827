"""Fano's refusals: each illegal action's code and English template
(:class:`~fanfold.core.errors.Refusal`), worded on the play server's page from the same template
translated. A part of a sentence that several refusals share (what promoting needs, the values a
joker may take) is a refusal of its own, carried as a parameter."""

from __future__ import annotations

from fanfold.core.errors import templates

#: What a player is told to type for the list of the legal moves, after some refusals.
_HINT = "; type 'legal' to list the legal moves"
#: Why a special may not be used now.
_SPENT = "not your special, or you used a special at this commander level"

templates(
    {
        "fano.not_legal": "{action} is not a legal move here" + _HINT,
        "fano.over": "the game is over",
        "fano.answer_mulligan": "your hand may be redrawn: answer 'mulligan' or 'keep' first",
        "fano.answer_shuffle": "your draw pile is empty: answer 'shuffle' or 'shuffle joker' first",
        "fano.no_attack_to_answer": "counters and 'allow' answer an attack declared on one of "
        "your cards",
        "fano.sacrifice_when_shown": "a face-down card is sacrificed only after an attack on you "
        "shows its support",
        "fano.no_redraw": "the redraw is only offered in the draw phase, for a hand that allows it",
        "fano.no_reshuffle": "there is no reshuffle to decide now",
        "fano.promoted": "you promoted, which ends the main phase: play, sub, discard or pass",
        "fano.trionfey_declare": "in the Trionfey edition you declare an attack without naming "
        "the support: {attack}",
        "fano.trionfey_defense": "the Trionfey edition's Perfect defense plays a card face down "
        "at the end of the turn (play 5D down)",
        "fano.classic_attack": "in the classic edition attacks name their support, e.g. 4H>6S:3H",
        "fano.classic_recruit": "in the classic edition there is no recruit",
        "fano.trionfey_only": "that belongs to the Trionfey edition's tribute specials",
        "fano.no_tribute": "this game is played without the tribute specials",
        "fano.no_face_down": "you have no face-down {card} in play",
        "fano.not_in_play": "you have no {card} in play",
        "fano.face_down": "{card} lies face down: flip it first",
        "fano.reverse_not_needed": "a {a} attacks a {x} without Reverse Fano (it reverses only "
        "other attacks)",
        "fano.reverse_wrong": "reversed, a {a} can attack only what attacks it normally, and {x} "
        "does not",
        "fano.cannot_attack": "a {a} can not attack a {x}",
        "fano.cannot_attack_reversed": "a {a} can not attack a {x} ({x} attacks {a} instead)",
        "fano.prestige_no_attack": "prestige cards can not attack",
        "fano.target_not_in_play": "Player {player} (the player you attack) has no {card} in play",
        "fano.prestige_not_attacked": "prestige cards can not be attacked",
        "fano.protected": "{card} has Perfect defense and can not be removed",
        "fano.reverse_spent": "you can not use Reverse Fano now (" + _SPENT + ")",
        "fano.not_in_hand": "you have no {card} in hand",
        "fano.wrong_support": "{a} -> {x} needs a {needed} in hand as support, not {card}",
        "fano.name_the_player": "name the player you attack: {attack}",
        "fano.no_at_sign": "with two players write the attack without @: {attack}",
        "fano.attack_an_opponent": "attack one of your opponents",
        "fano.one_opponent": "this turn you attack Player {player} only (one opponent per turn)",
        "fano.partner": "Player {player} is your partner: attack a player of the other partnership",
        "fano.player_lacks": "Player {player} has no {card} in play",
        "fano.hidden_target": "{card} lies face down (Perfect defense): it can not be attacked",
        "fano.reverse_needs_hearts": "Reverse Fano needs the Hearts tribute special and three "
        "tribute counters",
        "fano.prestige_no_recruit": "prestige cards can not recruit",
        "fano.recruit_line": "a recruit needs three different values on one line of the Fano "
        "plane ('plane')",
        "fano.field_full": "your four field slots are full",
        "fano.only_one": "you have only one {card} in play",
        "fano.oversum_clubs": "Oversum is the Clubs tribute special ({cost} tribute counters)",
        "fano.oversum_spent": "you can not use Oversum now (" + _SPENT + ")",
        "fano.is_the_sum": "{card} is the sum: combine without Oversum",
        "fano.oversum_prestige": "Oversum may only make a prestige card in this variant",
        "fano.oversum_less": "Oversum needs a card worth less than {total}",
        "fano.joker_as_sum": "{values} declared as the sum {total}",
        "fano.wrong_sum": "{first} + {second} = {total}, not {result}",
        "fano.return_one": "only one of the two combined cards can return to hand, and never a "
        "joker",
        "fano.joker_any": "a Temporary Joker can be a combat or prestige card (1-10) in this "
        "variant",
        "fano.joker_combat_temp": "a joker can only be a combat card (1-7; a Temporary Joker may "
        "be a prestige card only with joker_prestige=true)",
        "fano.joker_combat": "a joker can only be a combat card (1-7)",
        "fano.team_only": 'only in a "One for all" partnership may partners\' cards pay a '
        "promotion",
        "fano.needs_easy": "three prestige cards in play (any three in this variant)",
        "fano.needs_intermediate": "three prestige cards in play: an 8, a 9 and a 10",
        "fano.needs_hard": "three prestige cards in play: an 8, a 9 and a 10 of one suit",
        "fano.promote_missing": "you have no {card} in play; promoting needs {need}",
        "fano.promote_needs": "promoting needs {need}",
        "fano.own_cards_plain": "write your own cards without @: {card}",
        "fano.team_fields": "a promotion is paid only from your own and your partners' fields",
        "fano.defense_spent": "you can not use Perfect defense now (" + _SPENT + ")",
        "fano.defense_combat": "Perfect defense goes on one of your combat cards in play",
        "fano.defended": "{card} already has Perfect defense",
        "fano.not_your_special": "that is not your suit's special, or you have fewer than "
        "{cost} tribute counters",
        "fano.joker_supply": "at most {supply} jokers are in the game at a time",
        "fano.not_held": "you do not hold {card}",
        "fano.name_discards": "name the cards to discard, or pass",
        "fano.discard_order": "list the discarded cards in order",
        "fano.prestige_by_combination": "prestige cards can only enter play by combination",
        "fano.joker_value": "name the joker's value when you play it, e.g. play JK4",
        "fano.field_full_sub": "your four field slots are full: use sub to replace a card",
        "fano.sub_down_counters": "that is not your suit's special, or you have too few tribute "
        "counters ({cost}, counting the one the substitute earns)",
        "fano.sub_joker_down": "substitute a combat card (not a joker) face down: a joker was "
        "seen drawn",
        "fano.play_joker_down": "play a combat card (not a joker) face down: a joker was seen "
        "drawn",
        "fano.no_attack": "there is no attack to answer",
        "fano.allow_or_sacrifice": "{attacker} attacks your {target} and showed {support}: "
        "answer 'allow' or sacrifice a face-down card" + _HINT,
        "fano.sacrifice_once_shown": "a face-down card is sacrificed only once the attack's "
        "support is shown",
        "fano.counter_or_allow": "{attacker} attacks your {target}: answer with a counter or "
        "'allow'" + _HINT,
        "fano.counter_with_target": "a counter combines the attacked {card} with another card",
        "fano.counter_combat": "a counter combines combat cards",
        "fano.counter_makes_combat": "a counter makes a combat card (1-7)",
        "fano.counter_sum": "{first} + {second} is not {result}",
        "fano.recruited_from_hand": "the recruited card comes from hand and combines with the "
        "attacked {card}",
        "fano.two_recruiters": "two different cards in play recruit a third from hand",
        "fano.field_full_recruit": "your four field slots are full: no room to recruit",
    }
)
