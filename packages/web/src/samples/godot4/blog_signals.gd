func _ready() -> void:
	Howl.Scores.score_saved.connect(_on_score_saved)

func _on_game_over() -> void:
	var result: Dictionary = await Howl.Scores.save_score(player_name, score)
	print("Placed #", result.position)

func _on_score_saved(result: Dictionary) -> void:
	print("A score was saved: ", result.score_id)
