func _on_level_completed(level: int) -> void:
	# No yield: the game moves on at once.
	Howl.PlayerData.save_player_data(player_name, {"level": level}, false)
	get_tree().change_scene("res://levels/level_%d.tscn" % (level + 1))
