var by_id = yield(Howl.Scores.get_score_position(score_id), "completed")
var by_value = yield(Howl.Scores.get_score_position(1500), "completed")
if by_value.position != null:
	print("You would be number ", by_value.position)
else:
	print("That score would not make the board")
