var result = await Howl.Scores.get_scores_around(score_id, 3)
for entry in result.scores_above + result.scores_below:
	print(entry.position, ". ", entry.player_name, ": ", entry.score)
