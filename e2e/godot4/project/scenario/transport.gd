extends RefCounted
## Set-up and the transport: configuration, headers, every failure mode, calls in flight, signals.

const TestHelper := preload("res://test_helper.gd")


func run(t: TestHelper) -> void:
	# Before configure: every call completes with NotConfigured, and still can be waited for.
	var fault := t.env("HOWL_FAULT_URL")
	var result: Dictionary = await Howl.ping()
	var scores: Dictionary = await Howl.Scores.get_scores()
	t.expect(t.code_of(result) == "NotConfigured" and t.code_of(scores) == "NotConfigured" and scores.scores == [],
		"not_configured", "%s / %s" % [t.said(result), t.said(scores)])

	t.configure_a()
	result = await Howl.ping()
	t.expect(t.ok(result) and result.game_id == t.env("HOWL_GAME_ID") and result.name == "Game A", "ping", t.said(result))

	t.configure_a({"api_key": "howl_not_the_key_of_this_game_0000000000000000"})
	result = await Howl.ping()
	t.expect(t.code_of(result) == "InvalidApiKey", "bad_key", t.said(result))

	t.configure_a({"base_url": fault + "/echo/", "game_version": "1.2.3"})
	result = await Howl.ping()
	var headers: Dictionary = result.get("headers", {})
	var engine := str(headers.get("x-howl-engine", ""))
	# Compared, never printed: the echo holds the API key.
	t.expect(t.ok(result) and headers.get("x-api-key") == t.env("HOWL_API_KEY") and headers.get("x-game-id") == t.env("HOWL_GAME_ID")
		and headers.get("x-howl-plugin-version") == Howl.VERSION and engine.begins_with("4.") and engine.split(".").size() == 3
		and headers.get("x-howl-game-version") == "1.2.3" and result.get("path") == "/echo/v1/ping",
		"headers_sent", "path %s, engine %s, plugin %s, game version %s" % [result.get("path"), engine, headers.get("x-howl-plugin-version"), headers.get("x-howl-game-version")])

	t.configure_a({"base_url": t.env("HOWL_DEAD_URL"), "timeout_seconds": 5})
	var started := t.now_ms()
	result = await Howl.ping()
	t.expect(t.code_of(result) == "NetworkError" and t.now_ms() - started < 5000, "refused_port", "%s after %d ms" % [t.said(result), t.now_ms() - started])

	t.configure_a({"base_url": fault + "/hang", "timeout_seconds": 2})
	started = t.now_ms()
	result = await Howl.ping()
	var took := t.now_ms() - started
	t.expect(t.code_of(result) == "Timeout" and took >= 1500 and took < 6000, "never_answers_times_out", "%s after %d ms" % [t.said(result), took])

	for fault_case in [["500", "server_500", "ServerError"], ["500json", "server_500_envelope", "InternalError"], ["nonjson", "non_json_body", "InvalidResponse"], ["empty", "empty_body", "InvalidResponse"]]:
		t.configure_a({"base_url": "%s/%s" % [fault, fault_case[0]]})
		result = await Howl.Scores.get_scores()
		t.expect(t.code_of(result) == fault_case[2] and result.scores == [], fault_case[1], t.said(result))

	t.configure_a({"base_url": fault + "/429"})
	started = t.now_ms()
	result = await Howl.ping()
	took = t.now_ms() - started
	t.expect(t.ok(result) and result.name == "retried" and took >= 900, "retry_after_429", "%s after %d ms" % [t.said(result), took])

	# Two calls at once: each gets its own request and its own answer.
	t.configure_a()
	var both := {}
	var first := t.unique("twin_a")
	var second := t.unique("twin_b")
	_save_into(both, first, 11)
	_save_into(both, second, 22)
	var deadline := t.now_ms() + 15000
	while both.size() < 2 and t.now_ms() < deadline:
		await t.get_tree().process_frame
	var top_a: Dictionary = await Howl.Scores.get_top_score_by_player(first)
	var top_b: Dictionary = await Howl.Scores.get_top_score_by_player(second)
	t.expect(both.size() == 2 and t.ok(both[first]) and t.ok(both[second]) and both[first].score_id != both[second].score_id
		and top_a.score is Dictionary and top_a.score.score_id == both[first].score_id and top_a.score.score == 11
		and top_b.score is Dictionary and top_b.score.score_id == both[second].score_id and top_b.score.score == 22,
		"two_calls_in_flight", "results %s" % [both])

	# Signals: each call emits its own, with the result it answers.
	var heard := []
	var on_pinged := func(r: Dictionary) -> void: heard.append(["pinged", r])
	var on_scores := func(r: Dictionary) -> void: heard.append(["scores_fetched", r])
	var on_data := func(r: Dictionary) -> void: heard.append(["player_data_fetched", r])
	Howl.pinged.connect(on_pinged)
	Howl.Scores.scores_fetched.connect(on_scores)
	Howl.PlayerData.player_data_fetched.connect(on_data)
	var pinged: Dictionary = await Howl.ping()
	var fetched: Dictionary = await Howl.Scores.get_scores()
	var data: Dictionary = await Howl.PlayerData.get_player_data(t.unique("nobody"))
	# This step ends here: its listeners must not outlive it.
	Howl.pinged.disconnect(on_pinged)
	Howl.Scores.scores_fetched.disconnect(on_scores)
	Howl.PlayerData.player_data_fetched.disconnect(on_data)
	t.expect(heard.size() == 3 and heard[0][0] == "pinged" and heard[0][1] == pinged and heard[1][0] == "scores_fetched"
		and heard[1][1] == fetched and heard[2][0] == "player_data_fetched" and heard[2][1] == data and t.ok(data) and data.version == 0,
		"signals_emitted", "heard %s" % [heard.map(func(h: Array) -> String: return h[0])])

	# A paused game (a pause or game-over menu) still sends its calls and hears the answers.
	t.configure_a({"timeout_seconds": 20})
	var while_paused := []
	var on_paused := func(r: Dictionary) -> void: while_paused.append(r)
	Howl.pinged.connect(on_paused)
	t.get_tree().paused = true
	Howl.ping()
	var paused_started := t.now_ms()
	while while_paused.is_empty() and t.now_ms() - paused_started < 8000:
		await t.get_tree().process_frame
	t.get_tree().paused = false
	Howl.pinged.disconnect(on_paused)
	t.configure_a()
	var paused_result: Dictionary = while_paused[0] if not while_paused.is_empty() else {"error": {"code": "StillWaiting", "message": "no answer while paused"}}
	t.expect(t.ok(paused_result) and paused_result.name == "Game A", "paused_game_calls", t.said(paused_result))


func _save_into(results: Dictionary, player_name: String, score: int) -> void:
	results[player_name] = await Howl.Scores.save_score(player_name, score)
