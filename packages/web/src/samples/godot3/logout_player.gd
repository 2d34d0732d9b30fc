func _on_logout_pressed():
	yield(Howl.Players.logout_player(), "completed")

# Or end the player's sessions on every device:
func _on_logout_everywhere_pressed():
	yield(Howl.Players.logout_player(true), "completed")
