func _on_register_pressed() -> void:
	var result = await Howl.Players.register_player(
		%Name.text, %Email.text, %Password.text, %ConfirmPassword.text)
	if result.error:
		%Error.text = result.error.message
	elif result.confirmation_required:
		show_code_form()  # an email with a code is on its way
	else:
		show_login_form()
