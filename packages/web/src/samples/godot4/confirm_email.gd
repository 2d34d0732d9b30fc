var result = await Howl.Players.confirm_email(player_name, %Code.text)
if result.error:
	%Error.text = result.error.message  # CodeMismatch or ExpiredCode

# No mail? Send a fresh code
await Howl.Players.resend_confirmation_code(player_name)
