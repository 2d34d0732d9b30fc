func _on_game_over(score: int):
	var result = yield(Howl.Scores.save_score(player_name, score), "completed")
	if result.error != null:
		push_error(result.error.message)
		return
	# position is null when the score did not make the board (a board keeps its best entries only).
	if result.position != null:
		$PositionLabel.text = "You placed #%d" % result.position
	else:
		$PositionLabel.text = "Not on the board this time"

	var top = yield(Howl.Scores.get_scores(10), "completed")
	for entry in top.scores:
		print(entry.position, ". ", entry.player_name, ": ", entry.score)
