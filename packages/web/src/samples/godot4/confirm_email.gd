func _on_confirm_pressed() -> void:
	var result = await Howl.Players.confirm_email(player_name, %Code.text)
	if result.error:
		%Error.text = result.error.message  # CodeMismatch or ExpiredCode

# No mail? Send a fresh code
func _on_resend_pressed() -> void:
	await Howl.Players.resend_confirmation_code(player_name)
