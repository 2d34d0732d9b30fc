var result = yield(Howl.Scores.get_scores_by_player("a_player", 10), "completed")
for entry in result.scores:
	print(entry.position, ": ", entry.score)
