func _ready() -> void:
	Howl.Scores.score_saved.connect(_on_score_saved)
	Howl.Scores.scores_fetched.connect(_on_scores_fetched)

func _on_submit_pressed() -> void:
	Howl.Scores.save_score(player_name, score)

func _on_score_saved(result: Dictionary) -> void:
	if result.error == null:
		Howl.Scores.get_scores(10)

func _on_scores_fetched(result: Dictionary) -> void:
	$Leaderboard.show_scores(result.scores)
