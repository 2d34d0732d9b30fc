var pos = $Player.position
var data = {"x": pos.x, "y": pos.y}  # not the Vector2 itself
yield(Howl.PlayerData.save_player_data("a_player", data, false), "completed")
