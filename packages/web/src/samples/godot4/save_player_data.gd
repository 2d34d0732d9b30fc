var data = {"level": 3, "gold": 10, "unlocked": ["forest", "cave"]}
var result = await Howl.PlayerData.save_player_data("a_player", data)

# Later: change the gold only, keep the rest
await Howl.PlayerData.save_player_data("a_player", {"gold": 25}, false)
