var result = yield(Howl.Players.confirm_email(player_name, $Code.text), "completed")
if result.error:
	$Error.text = result.error.message  # CodeMismatch or ExpiredCode

# No mail? Send a fresh code
yield(Howl.Players.resend_confirmation_code(player_name), "completed")
