var current = yield(Howl.PlayerData.get_player_data("a_player"), "completed")
var data = current.player_data
data.gold = data.get("gold", 0) + 5
var result = yield(Howl.PlayerData.save_player_data("a_player", data, true, current.version), "completed")
if result.error and result.error.code == "VersionConflict":
	pass  # another device saved first: read again and retry
