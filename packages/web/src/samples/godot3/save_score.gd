func _on_game_over(player_name, score):
	var result = yield(Howl.Scores.save_score(player_name, score), "completed")
	if result.error:
		print("Score not saved: ", result.error.message)
		return
	print("Saved as ", result.score_id, ", position ", result.position)
