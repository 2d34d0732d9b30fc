await Howl.Scores.wipe_leaderboard("main")
