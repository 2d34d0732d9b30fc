var result = yield(Howl.Players.login_player($Name.text, $Password.text), "completed")
if result.error:
	$Error.text = result.error.message
else:
	print("Welcome back, ", result.player.player_name)
