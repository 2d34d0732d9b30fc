extends Reference
# A new start of the game: the remembered session comes back, and logging out forgets it.


func run(t):
	# A key the server refuses (rotated on the dashboard, say) says nothing of the session: it is kept.
	t.configure_a({"api_key": "howl_not_the_key_of_this_game_0000000000000000"})
	var refused = yield(Howl.Players.resume_session(), "completed")
	var file := ConfigFile.new()
	var kept: bool = file.load("user://howl_session.cfg") == OK and str(file.get_value(t.env("HOWL_GAME_ID"), "token", "")) != ""
	t.expect(t.code_of(refused) == "InvalidApiKey" and kept and not Howl.Players.is_logged_in(), "resume_refused_key_keeps_session",
		"%s / kept: %s" % [t.show(refused), str(kept)])

	t.configure_a()
	var r = yield(Howl.Players.resume_session(), "completed")
	var me = yield(Howl.Players.get_current_player(), "completed")
	t.expect(
		r.error == null and typeof(r.player) == TYPE_DICTIONARY and str(r.player.get("player_name", "")).begins_with("howler_")
		and typeof(r.expires_at) == TYPE_STRING and not r.has("access_token")
		and Howl.Players.is_logged_in() and me.error == null and me.player_name == r.player.player_name,
		"resume_session", "%s / %s" % [t.show(r), t.show(me)])

	var out = yield(Howl.Players.logout_player(), "completed")
	var again = yield(Howl.Players.resume_session(), "completed")
	t.expect(
		out.error == null and out.ok == true and not Howl.Players.is_logged_in() and t.code_of(again) == "NoSavedSession",
		"resumed_player_logout", "%s / %s" % [t.show(out), t.show(again)])
