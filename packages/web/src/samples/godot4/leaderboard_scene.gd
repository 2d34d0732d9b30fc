get_tree().change_scene_to_file("res://addons/howl/scenes/Leaderboard.tscn")

# or, inside a scene of yours:
var board = preload("res://addons/howl/scenes/Leaderboard.tscn").instantiate()
board.ldboard_name = "weekly_best"
add_child(board)
