func _on_forgot_password_pressed() -> void:
	await Howl.Players.request_password_reset(player_name)

# Later, with the code from the email
func _on_new_password_pressed() -> void:
	var result = await Howl.Players.confirm_password_reset(
		player_name, %Code.text, %Password.text, %ConfirmPassword.text)
	if result.error:
		%Error.text = result.error.message
