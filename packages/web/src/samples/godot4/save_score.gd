func _on_game_over(player_name: String, score: int) -> void:
	var result = await Howl.Scores.save_score(player_name, score)
	if result.error:
		print("Score not saved: ", result.error.message)
		return
	print("Saved as ", result.score_id, ", position ", result.position)
