# When a round ends:
var result = await Howl.Scores.save_score(player_name, score)
print("You placed #", result.position)
