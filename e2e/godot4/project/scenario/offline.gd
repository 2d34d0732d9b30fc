extends RefCounted
## A start without a network: resuming fails with NetworkError and keeps the saved session.

const TestHelper := preload("res://test_helper.gd")


func run(t: TestHelper) -> void:
	t.configure_a({"base_url": t.env("HOWL_DEAD_URL"), "timeout_seconds": 5})
	var result: Dictionary = await Howl.Players.resume_session()
	t.expect(t.code_of(result) == "NetworkError" and not Howl.Players.is_logged_in() and t.has_saved_session(),
		"resume_offline_keeps_session", "resume offline: %s, saved session kept: %s" % [t.said(result), t.has_saved_session()])
