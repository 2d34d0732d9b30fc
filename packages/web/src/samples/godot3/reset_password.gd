yield(Howl.Players.request_password_reset(player_name), "completed")

# Later, with the code from the email
var result = yield(Howl.Players.confirm_password_reset(
	player_name, $Code.text, $Password.text, $ConfirmPassword.text), "completed")
if result.error:
	$Error.text = result.error.message
