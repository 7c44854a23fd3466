# ruff: noqa: B018  (vulture reads the names; nothing runs them)
"""Names vulture cannot see used: `make lint` runs

    vulture src/lucie scripts/vulture_whitelist.py

Each name here is used by name by a framework, read by a test as public
API, or kept for Babel's extraction.  A name that nothing uses any more
comes out of the code, not in here.  (Vulture reads this file; it is never
imported.)
"""

from vulture.whitelist_utils import Whitelist

_ = Whitelist()

# -- Textual calls these by name (handlers, actions, watchers, class settings)
_.CSS_PATH
_.TITLE
_.BINDINGS
_.DEFAULT_CSS
_.on_mount
_.on_unmount
_.on_key
_.on_click
_.on_resize
_.on_button_pressed
_.on_input_submitted
_.on_option_list_option_selected
_.on_data_table_row_highlighted
_.on_fan_view_clicked
_.on_foundations_view_clicked
_.on_cells_view_clicked
_.action_answer
_.action_cancel
_.action_choose
_.action_close
_.action_command_palette
_.action_quit
_.watch_board
_.watch_notice
_.arrange
_.check_action
_.get_content_height
_.display  # a widget's visibility, read by Textual
_.highlighted  # an option list's highlighted row, read by Textual
# the arguments of overridden Textual methods, named as Textual names them
_.parameters
_.container
_.viewport
_.class_names  # FooterKey.has_class, a protocol of Textual's method

# -- gymnasium: the environment class (registered by its dotted name) and
# the attributes gymnasium and the agents read
_.LucieEnv
_.metadata
_.action_space
_.observation_space

# -- sqlite3 reads the connection's text_factory
_.text_factory

# -- urllib's redirect handler reads it (lucie.tui.remote: no redirect followed)
_.max_redirections

# -- texts marked for Babel's extraction (argparse's and Textual's own words)
_.ARGPARSE_TEXTS
_.TEXTUAL_TEXTS
_.PALETTE
_.TRANSLATED  # lucie.i18n: read by scripts/translations and the tests

# -- public API that the tests use and no interface calls yet
_.parse_cards  # lucie.cards: the inverse of format_cards
_.card_source  # Move.card_source: the card a move takes
_.peek  # Game.peek: the next move of redo
_.redo_moves  # Game.redo_moves
_.redo_steps  # Game.redo_steps
_.touch  # session clock: a page says it is still shown
_.players  # Store.players
_.export  # Store.export: every game as JSON or CSV
_.local_player  # Store.local_player: the players of a site (issue 40)
_.new_player  # Store.new_player: an anonymous player of a site (issue 40)
_.rename_player  # Store.rename_player: a display name chosen (issue 40)
_.delete_player  # Store.delete_player: a player's data deleted (issue 40)
_.message_kind  # the TUI app's message kind (the tests read it)
_.store_id  # a web session's stored game number
_.killed  # the thinking pool's count of killed workers

# -- the search and the analysis: public names the tests and tools read
_.KINDS  # analysis.hints: the kinds of hint
_.difficulty_description  # analysis.difficulty: a difficulty in words
_.play_optimal_checked  # analysis.study: the optimal policy, every move checked
_.verdict_text  # solver.results: a verdict in words
_.is_compiled  # solver._native: read by the benchmarks and scripts/native.py
# the proofs' anchors, cited by name in the search's code and checked
# against docs/solver.md by tests/test_readme.py
_._proof_foundation
_._proof_builds
_._proof_merci_caps
_._proof_pair_home
_._proof_lone
_._proof_deadlock
_._proof_reach
_._proof_merci_reach
_._proof_room
_.rereads  # tui.duel: the times a duel was read again for news missed (read by its tests)
