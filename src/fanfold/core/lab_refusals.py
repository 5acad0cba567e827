"""The refusals of the tools built on the tables (:class:`~fanfold.core.errors.Refusal`):
an arena request (``fanfold arena``), a balance experiment (``fanfold balance``, its file or
command line), the research environments (an action index that is not one, an action outside a
variant's table, a game with no encoding, an OpenSpiel game string's parameters that do not go
together). Each is a code with parameters, worded in the terminal's language like every
refusal (``docs/i18n.md``); its English sentence is the error's message.
"""

from __future__ import annotations

from fanfold.core.errors import templates

#: A batch's and a census's refusals (the arena, the balance lab, ``fanfold solve fan``): a
#: file that cannot be read or written (the system's reason inside, as it says it), workers,
#: deal ranges, a Ray cluster out of reach.
templates(
    {
        "file.unreadable": "cannot read {path}: {why}",
        "file.unwritable": "cannot write {path}: {why}",
        "batch.another_tool": "{path} line {line} was written by another kind of run (it has "
        "no {field}); give this run a results file of its own",
        "batch.workers": "workers must be at least 1, not {workers}",
        "batch.keys": "every job of a batch needs its own key",
        "batch.not_a_row": "{path} line {line} is not a result row of fanfold's batch runner; "
        "use another results file or remove that line",
        "batch.no_ray": "Ray is not installed: {install} (or {plain}), or leave out --ray to "
        "run in processes on this machine",
        "batch.no_ray_cluster": "cannot reach a Ray cluster at {where}: {why}",
        "census.not_a_range": "{part} is not a deal number or range such as {example}",
        "census.bad_range": "{part} is not a range of deal numbers (low-high, from 0)",
        "census.no_deals": "no deals given: write e.g. {example}",
        "census.not_a_number": "a census row holds {value} where a number belongs",
        "census.negative_deal": "deal numbers are 0 or more, not {deal}",
        "census.too_many_fans": "{path} has {count} fans; Fan has 18",
    }
)

#: An arena request's refusals.
templates(
    {
        "arena.no_agents": "name the agents, e.g. {example}",
        "arena.named_twice": "{agent} is named twice; name each agent once (the last one fills "
        "empty seats)",
        "arena.games_at_least_one": "--games must be at least 1, not {games}",
        "arena.games_multiple": "--games must be a multiple of {players} so that every agent "
        "plays every seat of every deal equally (try {games})",
        "arena.negative_seed": "the seed is 0 or more, not {seed}",
        "arena.results_of_another_run": "{path} holds games of another run: its game {job} has "
        "{name} {found} where this run's has {wanted}; give this run a results file of its own "
        "(deal r of --seed S is S + r)",
    }
)

#: An experiment's refusals: each names its place (the experiment, a file, a variant in it).
templates(
    {
        "balance.the_experiment": "the experiment",
        "balance.the_command_line": "the command line",
        "balance.variant_place": "{where}, variant {label}",
        "balance.variant_number_place": "{where}, variant {number}",
        "balance.at": "{where}: {reason}",
        "balance.player": "player {text}: {reason}",
        "balance.forbid_form": "player {text}: after ';' write {form} (e.g. {example})",
        "balance.no_kind_to_forbid": "player {text}: {game} has no action kind {names} to "
        "forbid; the kinds' names: {valid}",
        "balance.idle_in_variant": "{where}: player {player} may not choose {names}, but this "
        "variant offers no such action (the kinds offered, by variant: {offered}), so the "
        "restriction would change nothing and the comparison would measure nothing (about "
        "50%): drop it, or choose a preset or options that have it",
        "balance.idle_in_variants": "{where}: player {player} may not choose {names}, but any "
        "variant it plays in offers no such action (the kinds offered, by variant: {offered}), "
        "so the restriction would change nothing and the comparison would measure nothing "
        "(about 50%): drop it, or choose a preset or options that have it",
        "balance.games": "{where}: games must be a whole number of at least 1, not {value}",
        "balance.seed": "{where}: seed must be a whole number, 0 or more, not {value}",
        "balance.variant_keys": "{where}: variant {number} has unknown keys {unknown} (a "
        "variant takes {keys})",
        "balance.variant_twice": "{where}: two variants are called {label}; name each once",
        "balance.name_players": "{where}: name the players, e.g. players = {example}",
        "balance.too_many_players": "{where}: {players} players for {seats} seats",
        "balance.rotate_games": "{where}: games must be a multiple of {seats} so that every "
        "player plays every seat of every deal (try {games}), or set rotate = false",
        "balance.distinguishing_list": "{where}: distinguishing is a list of action kinds, "
        "e.g. distinguishing = {example}",
        "balance.distinguishing": "{where}: distinguishing: {reason}",
        "balance.no_kind": "{where}: {game} has no action kind {names}; the kinds' names: {valid}",
        "balance.options_table": "options is a table of option values, e.g. {example}",
        "balance.not_toml": "{path} is not a TOML file: {why}",
        "balance.top_keys": "{where}: unknown keys {unknown} (an experiment takes {keys})",
        "balance.name_game": "{where}: name the game, e.g. {example}",
        "balance.variant_tables": "{where}: variants are {example} tables",
        "balance.rotate": "{where}: rotate is true or false, not {value}",
        "balance.one_preset": "variant {text}: one preset a variant ({preset} and {word})",
    }
)


#: The research environments' refusals.
templates(
    {
        "envs.not_in_table": "{action} is not in the action table of this variant",
        "envs.index_out_of_range": "action index {index} is out of range: this variant has "
        "actions 0 to {last}",
        "envs.no_encoding": "{game} has no environment encoding",
        "envs.not_legal_here": "action {number} ({action}) is not legal here: {reason}",
        "envs.not_an_index": "an action is an integer index, not {value}",
        "envs.episode_over": "the episode is over: reset it to play again",
        "envs.not_deciding": "seat {seat} does not decide now; seat {decider} does",
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
