yield(Howl.Scores.wipe_leaderboard("main"), "completed")
