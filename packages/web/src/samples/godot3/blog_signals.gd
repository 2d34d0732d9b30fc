func _ready():
	Howl.Scores.connect("score_saved", self, "_on_score_saved")

func _on_game_over():
	var result = yield(Howl.Scores.save_score(player_name, score), "completed")
	print("Placed #", result.position)

func _on_score_saved(result):
	print("A score was saved: ", result.score_id)
