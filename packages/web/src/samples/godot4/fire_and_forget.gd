func _on_level_completed(level: int) -> void:
	# No await: the game moves on at once.
	Howl.PlayerData.save_player_data(player_name, {"level": level}, false)
	get_tree().change_scene_to_file("res://levels/level_%d.tscn" % (level + 1))
