extends RefCounted
## A new start of the game: the remembered session comes back, and logging out forgets it.

const TestHelper := preload("res://test_helper.gd")


func run(t: TestHelper) -> void:
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
