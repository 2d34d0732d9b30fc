var result = yield(Howl.PlayerData.get_player_data("a_player"), "completed")
var level = result.player_data.get("level", 1)
