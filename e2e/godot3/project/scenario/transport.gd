extends Reference
# Set-up and the transport: configuration, headers, every failure mode, calls in flight, signals.

var _seen := []


func run(t):
	# Before configure: every call completes with NotConfigured, and still can be waited for.
	Howl.configure({})
	var r = yield(Howl.ping(), "completed")
	t.expect(t.code_of(r) == "NotConfigured" and r.has("game_id"), "not_configured", t.show(r))

	t.configure_a()
	r = yield(Howl.ping(), "completed")
	t.expect(r.error == null and r.game_id == t.env("HOWL_GAME_ID") and typeof(r.name) == TYPE_STRING, "ping", t.show(r))

	t.configure_a({"api_key": "howl_not_the_key"})
	r = yield(Howl.ping(), "completed")
	t.expect(t.code_of(r) == "InvalidApiKey", "bad_key", t.show(r))

	t.configure_a({"base_url": t.env("HOWL_FAULT_URL") + "/echo/", "game_version": "1.2.3"})
	r = yield(Howl.ping(), "completed")
	var headers = r.get("headers", {})
	var info := Engine.get_version_info()
	var engine := "%d.%d.%d" % [info.major, info.minor, info.patch]
	var why := ""
	if typeof(headers) != TYPE_DICTIONARY:
		why = "no echo: %s" % t.show(r)
	elif headers.get("x-api-key") != t.env("HOWL_API_KEY"):
		why = "x-api-key was not the game's key"
	elif headers.get("x-game-id") != t.env("HOWL_GAME_ID"):
		why = "x-game-id %s" % str(headers.get("x-game-id"))
	elif headers.get("x-howl-plugin-version") != Howl.VERSION or Howl.VERSION != "0.6.20":
		why = "x-howl-plugin-version %s" % str(headers.get("x-howl-plugin-version"))
	elif headers.get("x-howl-engine") != engine or not engine.begins_with("3."):
		why = "x-howl-engine %s, expected %s" % [str(headers.get("x-howl-engine")), engine]
	elif headers.get("x-howl-game-version") != "1.2.3":
		why = "x-howl-game-version %s" % str(headers.get("x-howl-game-version"))
	elif headers.has("authorization"):
		why = "an authorization header without a logged-in player"
	elif r.get("path") != "/echo/v1/ping":
		why = "the trailing slash of base_url was kept: %s" % str(r.get("path"))
	t.expect(why == "", "headers_sent", why)

	t.configure_a({"base_url": t.env("HOWL_DEAD_URL"), "timeout_seconds": 5})
	var started: int = t.now_ms()
	r = yield(Howl.ping(), "completed")
	t.expect(t.code_of(r) == "NetworkError" and t.now_ms() - started < 5000, "refused_port", "%s after %d ms" % [t.show(r), t.now_ms() - started])

	t.configure_a({"base_url": t.env("HOWL_FAULT_URL") + "/hang", "timeout_seconds": 2})
	started = t.now_ms()
	r = yield(Howl.ping(), "completed")
	var elapsed: int = t.now_ms() - started
	t.expect(t.code_of(r) == "Timeout" and elapsed >= 1900 and elapsed < 4000, "never_answers_times_out", "%s after %d ms" % [t.show(r), elapsed])

	t.configure_a({"base_url": t.env("HOWL_FAULT_URL") + "/500"})
	r = yield(Howl.ping(), "completed")
	t.expect(t.code_of(r) == "ServerError", "server_500", t.show(r))

	t.configure_a({"base_url": t.env("HOWL_FAULT_URL") + "/500json"})
	r = yield(Howl.ping(), "completed")
	t.expect(t.code_of(r) == "InternalError" and r.error.message != "", "server_500_envelope", t.show(r))

	t.configure_a({"base_url": t.env("HOWL_FAULT_URL") + "/nonjson"})
	r = yield(Howl.Scores.get_scores(), "completed")
	t.expect(t.code_of(r) == "InvalidResponse" and typeof(r.scores) == TYPE_ARRAY, "non_json_body", t.show(r))

	t.configure_a({"base_url": t.env("HOWL_FAULT_URL") + "/empty"})
	r = yield(Howl.ping(), "completed")
	t.expect(t.code_of(r) == "InvalidResponse", "empty_body", t.show(r))

	t.configure_a({"base_url": t.env("HOWL_FAULT_URL") + "/429/" + t.env("HOWL_RUN")})
	started = t.now_ms()
	r = yield(Howl.ping(), "completed")
	elapsed = t.now_ms() - started
	t.expect(r.error == null and r.get("name") == "retried" and elapsed >= 900, "retry_after_429", "%s after %d ms" % [t.show(r), elapsed])

	# Two calls of the same kind at once: each gets its own request and its own answer.
	t.configure_a()
	var first = t.unique("inflight1")
	var second = t.unique("inflight2")
	var call_one = Howl.Scores.save_score(first, 11, {}, "weekly")
	var call_two = Howl.Scores.save_score(second, 22, {}, "weekly")
	var one = yield(call_one, "completed")
	var two = yield(call_two, "completed")
	var tops_one = Howl.Scores.get_top_score_by_player(first, "weekly")
	var tops_two = Howl.Scores.get_top_score_by_player(second, "weekly")
	var top_one = yield(tops_one, "completed")
	var top_two = yield(tops_two, "completed")
	t.expect(
		one.error == null and two.error == null and one.score_id != two.score_id
		and top_one.error == null and top_two.error == null
		and top_one.score.player_name == first and t.same(top_one.score.score, 11)
		and top_two.score.player_name == second and t.same(top_two.score.score, 22)
		and top_one.score.score_id == one.score_id and top_two.score.score_id == two.score_id,
		"two_calls_in_flight", "%s / %s / %s / %s" % [t.show(one), t.show(two), t.show(top_one), t.show(top_two)])

	# Signals: a call that succeeds and one that fails before sending both emit theirs.
	_seen = []
	Howl.connect("pinged", self, "_on_result", ["pinged"])
	Howl.Scores.connect("score_saved", self, "_on_result", ["score_saved"])
	var pinged = yield(Howl.ping(), "completed")
	var refused = yield(Howl.Scores.save_score("", 1), "completed")
	Howl.disconnect("pinged", self, "_on_result")
	Howl.Scores.disconnect("score_saved", self, "_on_result")
	t.expect(
		_seen.size() == 2 and _seen[0][1] == "pinged" and _seen[0][0] == pinged
		and _seen[1][1] == "score_saved" and _seen[1][0] == refused and t.code_of(refused) == "InvalidParameter",
		"signals_emitted", str(_seen.size()))

	# A paused game (a pause or game-over menu) still sends its calls and hears the answers.
	t.configure_a({"timeout_seconds": 20})
	_seen = []
	Howl.connect("pinged", self, "_on_result", ["pinged"])
	t.get_tree().paused = true
	var _call = Howl.ping()
	var paused_started: int = t.now_ms()
	while _seen.empty() and t.now_ms() - paused_started < 8000:
		yield(t.get_tree(), "idle_frame")
	t.get_tree().paused = false
	Howl.disconnect("pinged", self, "_on_result")
	t.configure_a()
	var paused_result: Dictionary = _seen[0][0] if not _seen.empty() else {"error": {"code": "StillWaiting", "message": "no answer while paused"}}
	t.expect(paused_result.error == null and paused_result.name == "Game A", "paused_game_calls", t.show(paused_result))


func _on_result(result, which: String) -> void:
	_seen.append([result, which])
