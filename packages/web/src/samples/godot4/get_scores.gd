func show_high_scores() -> void:
	var result = await Howl.Scores.get_scores(10)
	for entry in result.scores:
		print(entry.position, ". ", entry.player_name, ": ", entry.score)
