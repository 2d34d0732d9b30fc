var result = yield(Howl.Scores.save_score(player_name, score), "completed")
if result.error != null:
	match result.error.code:
		"InvalidApiKey":
			push_error("Check the api_key and game_id passed to Howl.configure")
		"LimitExceeded":
			print("Too many calls, try again later")
		_:
			push_error(result.error.message)
