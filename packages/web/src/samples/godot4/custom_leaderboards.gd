# Save to the weekly board, then read last week's top 10
await Howl.Scores.save_score("a_player", 42, {}, "weekly_best")
var last_week = await Howl.Scores.get_scores(10, "weekly_best", -1)
