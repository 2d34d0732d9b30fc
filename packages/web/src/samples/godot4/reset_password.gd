await Howl.Players.request_password_reset(player_name)

# Later, with the code from the email
var result = await Howl.Players.confirm_password_reset(
	player_name, %Code.text, %Password.text, %ConfirmPassword.text)
if result.error:
	%Error.text = result.error.message
