var by_id = await Howl.Scores.get_score_position(score_id)
var by_value = await Howl.Scores.get_score_position(1500)
if by_value.position != null:
	print("You would be number ", by_value.position)
else:
	print("That score would not make the board")
