var result = await Howl.Scores.get_top_score_by_player("a_player")
if result.score:
	print("Best: ", result.score.score, " at position ", result.score.position)
