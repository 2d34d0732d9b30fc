get_tree().change_scene("res://addons/howl/scenes/Leaderboard.tscn")

# or, inside a scene of yours:
var board = preload("res://addons/howl/scenes/Leaderboard.tscn").instance()
board.ldboard_name = "weekly_best"
add_child(board)
