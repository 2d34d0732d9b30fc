extends Reference
# A start without a network: resuming fails with NetworkError and keeps the saved session.


func run(t):
	t.configure_a({"base_url": t.env("HOWL_DEAD_URL"), "timeout_seconds": 5})
	var before := _saved_token(t)
	var r = yield(Howl.Players.resume_session(), "completed")
	var after := _saved_token(t)
	t.expect(
		t.code_of(r) == "NetworkError" and before != "" and after == before and not Howl.Players.is_logged_in(),
		"resume_offline_keeps_session", "%s; saved before: %s, after: %s" % [t.show(r), str(before != ""), str(after == before)])


static func _saved_token(t) -> String:
	var file := ConfigFile.new()
	if file.load("user://howl_session.cfg") != OK:
		return ""
	return str(file.get_value(t.env("HOWL_GAME_ID"), "token", ""))
