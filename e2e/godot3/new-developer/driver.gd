extends Node
# Plays the game's part for the guide's handlers in game.gd (e2e/new-developer.test.ts): a game
# over with a score, then the high scores; then ends the run.


func _ready() -> void:
	# Untyped: the handlers are the guide's, not Node's.
	var game = get_node("../Game")
	yield(game._on_game_over("a player", 1200), "completed")
	yield(game.show_high_scores(), "completed")
	# The ping sample answers on its own; it had the time of two calls and gets one more second.
	yield(get_tree().create_timer(1.0), "timeout")
	get_tree().quit()
