yield(Howl.PlayerData.save_player_data("__game__", {"season": 2}, false), "completed")
var state = yield(Howl.PlayerData.get_player_data("__game__"), "completed")
print("Season ", state.player_data.season)
