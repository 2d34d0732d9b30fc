func _on_logout_pressed() -> void:
	await Howl.Players.logout_player()

# Or end the player's sessions on every device:
func _on_logout_everywhere_pressed() -> void:
	await Howl.Players.logout_player(true)
