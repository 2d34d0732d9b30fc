await Howl.PlayerData.save_player_data("__game__", {"season": 2}, false)
var state = await Howl.PlayerData.get_player_data("__game__")
print("Season ", state.player_data.season)
