# Log in and remember the player on this device
func _on_login_pressed() -> void:
	var result = await Howl.Players.login_player(player_name, password, true)
	if result.error:
		%Error.text = result.error.message

# Next launch: the player is logged in again without typing anything
func _ready() -> void:
	var result = await Howl.Players.resume_session()
	if result.error:
		show_login_form()  # no saved session, or it expired
