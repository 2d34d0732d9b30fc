func show_high_scores():
	var result = yield(Howl.Scores.get_scores(10), "completed")
	for entry in result.scores:
		print(entry.position, ". ", entry.player_name, ": ", entry.score)
