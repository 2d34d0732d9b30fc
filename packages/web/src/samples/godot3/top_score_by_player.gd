var result = yield(Howl.Scores.get_top_score_by_player("a_player"), "completed")
if result.score:
	print("Best: ", result.score.score, " at position ", result.score.position)
