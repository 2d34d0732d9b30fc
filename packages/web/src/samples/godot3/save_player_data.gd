var data = {"level": 3, "gold": 10, "unlocked": ["forest", "cave"]}
var result = yield(Howl.PlayerData.save_player_data("a_player", data), "completed")

# Later: change the gold only, keep the rest
yield(Howl.PlayerData.save_player_data("a_player", {"gold": 25}, false), "completed")
