func _on_game_over(score: int) -> void:
	var result: Dictionary = await Howl.Scores.save_score(player_name, score)
	if result.error != null:
		push_error(result.error.message)
		return
	$PositionLabel.text = "You placed #%d" % result.position

	var top: Dictionary = await Howl.Scores.get_scores(10)
	for entry in top.scores:
		print(entry.position, ". ", entry.player_name, ": ", entry.score)
