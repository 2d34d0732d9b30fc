var metadata = {"level": 3, "character": "wolf", "hard_mode": true}
yield(Howl.Scores.save_score("a_player", 1200, metadata, "main"), "completed")
