var result = await Howl.Scores.get_scores_by_player("a_player", 10)
for entry in result.scores:
	print(entry.position, ": ", entry.score)
