var result = await Howl.PlayerData.get_player_data("a_player")
var level = result.player_data.get("level", 1)
