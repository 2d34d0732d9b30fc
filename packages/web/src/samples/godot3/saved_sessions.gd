# Log in and remember the player on this device
func _on_login_pressed():
	var result = yield(Howl.Players.login_player(player_name, password, true), "completed")
	if result.error:
		$Error.text = result.error.message

# Next launch: the player is logged in again without typing anything
func _ready():
	var result = yield(Howl.Players.resume_session(), "completed")
	if result.error:
		show_login_form()  # no saved session, or it expired
