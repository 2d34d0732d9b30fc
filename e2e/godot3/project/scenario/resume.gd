extends Reference
# A new start of the game: the remembered session comes back, and logging out forgets it.


func run(t):
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
