extends RefCounted
## A new start of the game: the remembered session comes back, and logging out forgets it.

const TestHelper := preload("res://test_helper.gd")


func run(t: TestHelper) -> void:
	# A key the server refuses (rotated on the dashboard, say) says nothing of the session: it is kept.
	t.configure_a({"api_key": "howl_not_the_key_of_this_game_0000000000000000"})
	var refused: Dictionary = await Howl.Players.resume_session()
	t.expect(t.code_of(refused) == "InvalidApiKey" and t.has_saved_session() and not Howl.Players.is_logged_in(),
		"resume_refused_key_keeps_session", "%s / kept: %s" % [t.said(refused), t.has_saved_session()])

	t.configure_a()
	var howler := t.unique("howler")
	var result: Dictionary = await Howl.Players.resume_session()
	var me: Dictionary = await Howl.Players.get_current_player()
	t.expect(t.ok(result) and result.player is Dictionary and result.player.get("player_name") == howler
		and Howl.Players.is_logged_in() and Howl.Players.get_player().get("player_name") == howler
		and not result.has("access_token") and not result.has("saved_session") and t.ok(me) and me.player_name == howler,
		"resume_session", "resume: %s; me: %s" % [t.said(result), t.said(me)])

	var out: Dictionary = await Howl.Players.logout_player()
	var again: Dictionary = await Howl.Players.resume_session()
	t.expect(t.ok(out) and not Howl.Players.is_logged_in() and not t.has_saved_session() and t.code_of(again) == "NoSavedSession",
		"resumed_player_logout", "logout: %s; resume after: %s" % [t.said(out), t.said(again)])
