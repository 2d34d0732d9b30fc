var pos: Vector2 = $Player.position
var data = {"x": pos.x, "y": pos.y}  # not the Vector2 itself
await Howl.PlayerData.save_player_data("a_player", data, false)
