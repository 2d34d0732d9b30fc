var result = await Howl.Players.login_player(%Name.text, %Password.text)
if result.error:
	%Error.text = result.error.message
else:
	print("Welcome back, ", result.player.player_name)
