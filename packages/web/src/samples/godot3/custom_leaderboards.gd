# Save to the weekly board, then read last week's top 10
yield(Howl.Scores.save_score("a_player", 42, {}, "weekly_best"), "completed")
var last_week = yield(Howl.Scores.get_scores(10, "weekly_best", -1), "completed")
