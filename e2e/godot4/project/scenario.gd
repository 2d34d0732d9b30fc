extends Node
## The plugin scenario, the same on Godot 3 and Godot 4: every public call against the live server
## and the fault server, one check per name of e2e/support/engine-checks.ts.

const PASSWORD := "Howl-Player-1!"
const NEW_PASSWORD := "Howl-Player-2!"

const TestHelper := preload("res://test_helper.gd")

var t: TestHelper
var run_id := ""


func _setup(helper: TestHelper) -> void:
	t = helper
	run_id = t.env("HOWL_RUN", "local")


## The player whose saved session the offline and resume phases use.
func _howler() -> String:
	return "howler-" + run_id


func _email(who: String) -> String:
	return "%s@example.com" % who


func _configure(extra: Dictionary = {}, game: String = "A") -> void:
	var config := {
		"api_key": t.env("HOWL_API_KEY" if game == "A" else "HOWL_API_KEY_B"),
		"game_id": t.env("HOWL_GAME_ID" if game == "A" else "HOWL_GAME_ID_B"),
		"base_url": t.env("HOWL_URL"),
		# Debug logs, so the runner can check that no key, token or password is ever printed.
		"log_level": 2,
		"timeout_seconds": 5,
	}
	config.merge(extra, true)
	Howl.configure(config)


func _ok(result: Dictionary) -> bool:
	return result.get("error") == null


## Equal as JSON: numbers from the server come back as floats, so 3.0 matches 3.
func _same(a: Variant, b: Variant) -> bool:
	if (a is int or a is float) and (b is int or b is float):
		return float(a) == float(b)
	if a is Dictionary and b is Dictionary:
		if a.size() != b.size():
			return false
		for key in a:
			if not b.has(key) or not _same(a[key], b[key]):
				return false
		return true
	if a is Array and b is Array:
		if a.size() != b.size():
			return false
		for i in a.size():
			if not _same(a[i], b[i]):
				return false
		return true
	return typeof(a) == typeof(b) and a == b


func _ms() -> int:
	return Time.get_ticks_msec()


func run_main(helper: TestHelper) -> void:
	_setup(helper)
	await _transport()
	await _checks_before_sending()
	await _scores()
	await _players()
	await _player_data()
	# Back to game A and its server for the checks other files add.
	_configure()


func run_offline(helper: TestHelper) -> void:
	_setup(helper)
	# The game starts with the network down: the saved session must survive for the next start.
	_configure({"base_url": t.env("HOWL_DEAD_URL")})
	var result: Dictionary = await Howl.Players.resume_session()
	t.expect(t.code_of(result) == "NetworkError" and not Howl.Players.is_logged_in() and _saved_session_kept(),
		"resume_offline_keeps_session", "resume offline: %s, saved session kept: %s" % [t.said(result), _saved_session_kept()])


func run_resume(helper: TestHelper) -> void:
	_setup(helper)
	_configure()
	var result: Dictionary = await Howl.Players.resume_session()
	var me: Dictionary = await Howl.Players.get_current_player()
	t.expect(_ok(result) and result.player is Dictionary and result.player.get("player_name") == _howler()
		and Howl.Players.is_logged_in() and Howl.Players.get_player().get("player_name") == _howler()
		and not result.has("access_token") and not result.has("saved_session") and _ok(me) and me.player_name == _howler(),
		"resume_session", "resume: %s; me: %s" % [t.said(result), t.said(me)])
	var out: Dictionary = await Howl.Players.logout_player()
	var again: Dictionary = await Howl.Players.resume_session()
	t.expect(_ok(out) and not Howl.Players.is_logged_in() and not _saved_session_kept() and t.code_of(again) == "NoSavedSession",
		"resumed_player_logout", "logout: %s; resume after: %s" % [t.said(out), t.said(again)])


func _saved_session_kept() -> bool:
	var file := ConfigFile.new()
	return file.load("user://howl_session.cfg") == OK and file.has_section(t.env("HOWL_GAME_ID"))


# --- Set-up and the transport ---------------------------------------------------------------


func _transport() -> void:
	var fault := t.env("HOWL_FAULT_URL")
	var result: Dictionary = await Howl.ping()
	var scores: Dictionary = await Howl.Scores.get_scores()
	t.expect(t.code_of(result) == "NotConfigured" and t.code_of(scores) == "NotConfigured" and scores.scores == [],
		"not_configured", "%s / %s" % [t.said(result), t.said(scores)])

	_configure()
	result = await Howl.ping()
	t.expect(_ok(result) and result.game_id == t.env("HOWL_GAME_ID") and result.name == "Game A", "ping", t.said(result))

	_configure({"api_key": "howl_not_the_key_of_this_game_0000000000000000"})
	result = await Howl.ping()
	t.expect(t.code_of(result) == "InvalidApiKey", "bad_key", t.said(result))

	_configure({"base_url": fault + "/echo/", "game_version": "1.2.3"})
	result = await Howl.ping()
	var headers: Dictionary = result.get("headers", {})
	var engine := str(headers.get("x-howl-engine", ""))
	# Compared, never printed: the echo holds the API key.
	t.expect(_ok(result) and headers.get("x-api-key") == t.env("HOWL_API_KEY") and headers.get("x-game-id") == t.env("HOWL_GAME_ID")
		and headers.get("x-howl-plugin-version") == Howl.VERSION and engine.begins_with("4.") and engine.split(".").size() == 3
		and headers.get("x-howl-game-version") == "1.2.3" and result.get("path") == "/echo/v1/ping",
		"headers_sent", "path %s, engine %s, plugin %s, game version %s" % [result.get("path"), engine, headers.get("x-howl-plugin-version"), headers.get("x-howl-game-version")])

	_configure({"base_url": t.env("HOWL_DEAD_URL")})
	var started := _ms()
	result = await Howl.ping()
	t.expect(t.code_of(result) == "NetworkError" and _ms() - started < 5000, "refused_port", "%s after %d ms" % [t.said(result), _ms() - started])

	_configure({"base_url": fault + "/hang", "timeout_seconds": 2})
	started = _ms()
	result = await Howl.ping()
	var took := _ms() - started
	t.expect(t.code_of(result) == "Timeout" and took >= 1500 and took < 6000, "never_answers_times_out", "%s after %d ms" % [t.said(result), took])

	for fault_case in [["500", "server_500", "ServerError"], ["500json", "server_500_envelope", "InternalError"], ["nonjson", "non_json_body", "InvalidResponse"], ["empty", "empty_body", "InvalidResponse"]]:
		_configure({"base_url": "%s/%s" % [fault, fault_case[0]]})
		result = await Howl.Scores.get_scores()
		t.expect(t.code_of(result) == fault_case[2] and result.scores == [], fault_case[1], t.said(result))

	_configure({"base_url": fault + "/429"})
	started = _ms()
	result = await Howl.ping()
	took = _ms() - started
	t.expect(_ok(result) and result.name == "retried" and took >= 900, "retry_after_429", "%s after %d ms" % [t.said(result), took])

	_configure()
	var both := {}
	var first := "twin-a-" + run_id
	var second := "twin-b-" + run_id
	_save_into(both, first, 11)
	_save_into(both, second, 22)
	var deadline := _ms() + 15000
	while both.size() < 2 and _ms() < deadline:
		await get_tree().process_frame
	var top_a: Dictionary = await Howl.Scores.get_top_score_by_player(first)
	var top_b: Dictionary = await Howl.Scores.get_top_score_by_player(second)
	t.expect(both.size() == 2 and _ok(both[first]) and _ok(both[second]) and both[first].score_id != both[second].score_id
		and top_a.score is Dictionary and top_a.score.score_id == both[first].score_id and top_a.score.score == 11
		and top_b.score is Dictionary and top_b.score.score_id == both[second].score_id and top_b.score.score == 22,
		"two_calls_in_flight", "results %s" % [both])

	var heard := []
	Howl.pinged.connect(func(r: Dictionary) -> void: heard.append(["pinged", r]))
	Howl.Scores.scores_fetched.connect(func(r: Dictionary) -> void: heard.append(["scores_fetched", r]))
	Howl.PlayerData.player_data_fetched.connect(func(r: Dictionary) -> void: heard.append(["player_data_fetched", r]))
	var pinged: Dictionary = await Howl.ping()
	var fetched: Dictionary = await Howl.Scores.get_scores()
	var data: Dictionary = await Howl.PlayerData.get_player_data("nobody-" + run_id)
	t.expect(heard.size() == 3 and heard[0][0] == "pinged" and heard[0][1] == pinged and heard[1][0] == "scores_fetched"
		and heard[1][1] == fetched and heard[2][0] == "player_data_fetched" and heard[2][1] == data and _ok(data) and data.version == 0,
		"signals_emitted", "heard %s" % [heard.map(func(h: Array) -> String: return h[0])])


func _save_into(results: Dictionary, player_name: String, score: int) -> void:
	results[player_name] = await Howl.Scores.save_score(player_name, score)


# --- Checks before sending -----------------------------------------------------------------


func _checks_before_sending() -> void:
	var player := "checked-" + run_id
	var empty: Dictionary = await Howl.Scores.save_score("", 10)
	var blank: Dictionary = await Howl.Scores.save_score("   ", 10)
	var register: Dictionary = await Howl.Players.register_player("", "", PASSWORD, PASSWORD)
	var data: Dictionary = await Howl.PlayerData.get_player_data("")
	t.expect(t.code_of(empty) == "InvalidParameter" and t.code_of(blank) == "InvalidParameter" and t.code_of(register) == "InvalidParameter"
		and t.code_of(data) == "InvalidParameter" and empty.error.get("field") == "player_name",
		"empty_player_name", "%s / %s / %s / %s" % [t.said(empty), t.said(blank), t.said(register), t.said(data)])

	var text_score: Dictionary = await Howl.Scores.save_score(player, "12")
	var nan_score: Dictionary = await Howl.Scores.save_score(player, NAN)
	var top: Dictionary = await Howl.Scores.get_top_score_by_player(player)
	t.expect(t.code_of(text_score) == "InvalidParameter" and t.code_of(nan_score) == "InvalidParameter" and _ok(top) and top.score == null,
		"non_numeric_score", "%s / %s / nothing sent: %s" % [t.said(text_score), t.said(nan_score), t.said(top)])

	var meta: Dictionary = await Howl.Scores.save_score(player, 10, "level 3")
	var meta_array: Dictionary = await Howl.Scores.save_score(player, 10, [1, 2])
	t.expect(t.code_of(meta) == "InvalidParameter" and t.code_of(meta_array) == "InvalidParameter", "metadata_not_dictionary",
		"%s / %s" % [t.said(meta), t.said(meta_array)])

	var node := Node.new()
	var vector: Dictionary = await Howl.PlayerData.save_player_data(player, {"position": Vector2(3, 4)})
	var nested: Dictionary = await Howl.PlayerData.save_player_data(player, {"party": [{"leader": node}]})
	var resource: Dictionary = await Howl.PlayerData.save_character_data(player, "Mage", {"look": Color.RED})
	node.free()
	var stored: Dictionary = await Howl.PlayerData.get_player_data(player)
	t.expect(t.code_of(vector) == "InvalidParameter" and t.code_of(nested) == "InvalidParameter" and t.code_of(resource) == "InvalidParameter"
		and "Vector2" in vector.error.message and nested.error.get("field") == "player_data.party.0.leader" and _ok(stored) and stored.version == 0,
		"player_data_engine_object", "%s / %s / %s / %s" % [t.said(vector), t.said(nested), t.said(resource), t.said(stored)])

	var big: Dictionary = await Howl.PlayerData.save_player_data(player, {"blob": "x".repeat(41000)})
	var fits: Dictionary = await Howl.PlayerData.save_player_data(player, {"blob": "x".repeat(40000)})
	t.expect(t.code_of(big) == "PlayerDataTooLarge" and _ok(fits) and fits.version == 1, "player_data_too_large", "%s / %s" % [t.said(big), t.said(fits)])


# --- Scores --------------------------------------------------------------------------------


func _scores() -> void:
	var p1 := "wolf-" + run_id
	var p2 := "fox-" + run_id
	var saved: Dictionary = await Howl.Scores.save_score(p1, 100)
	t.expect(_ok(saved) and saved.score_id is String and saved.score_id.length() == 36 and saved.position == 1 and saved.kept == true,
		"save_score", t.said(saved))
	var best_id: String = str(saved.score_id)

	var with_meta: Dictionary = await Howl.Scores.save_score(p2, 50, {"level": 3, "class": "mage"}, "main")
	var board: Dictionary = await Howl.Scores.get_scores(10)
	var entry_p2 := _entry_of(board.scores, p2)
	t.expect(_ok(with_meta) and entry_p2.get("metadata") is Dictionary and entry_p2.metadata.get("level") == 3 and entry_p2.metadata.get("class") == "mage",
		"save_score_metadata", "%s / %s" % [t.said(with_meta), entry_p2])

	var second: Dictionary = await Howl.Scores.save_score(p1, 80)
	board = await Howl.Scores.get_scores(2)
	t.expect(_ok(board) and board.scores.size() == 2 and board.scores[0].player_name == p1 and board.scores[0].score == 100
		and board.scores[0].position == 1 and board.scores[0].engine == 4 and board.period == null and board.has("cursor"),
		"get_scores", t.said(board))

	var everything: Dictionary = await Howl.Scores.get_scores(0)
	t.expect(_ok(everything) and everything.scores.size() >= 5 and everything.cursor == null and _entry_of(everything.scores, p2).get("score") == 50,
		"get_scores_all", "%d scores: %s" % [everything.scores.size(), t.said(everything)])

	var mine: Dictionary = await Howl.Scores.get_scores_by_player(p1)
	t.expect(_ok(mine) and mine.scores.size() == 2 and mine.scores[0].score == 100 and mine.scores[1].score == 80 and mine.period == null,
		"get_scores_by_player", t.said(mine))

	var top: Dictionary = await Howl.Scores.get_top_score_by_player(p1)
	var none: Dictionary = await Howl.Scores.get_top_score_by_player("nobody-" + run_id)
	t.expect(_ok(top) and top.score is Dictionary and top.score.score_id == best_id and _ok(none) and none.score == null,
		"get_top_score_by_player", "%s / %s" % [t.said(top), t.said(none)])

	var by_id: Dictionary = await Howl.Scores.get_score_position(best_id)
	t.expect(_ok(by_id) and by_id.position == 1, "score_position_by_id", t.said(by_id))
	var by_value: Dictionary = await Howl.Scores.get_score_position(90)
	var off_board: Dictionary = await Howl.Scores.get_score_position(-5.5)
	t.expect(_ok(by_value) and by_value.position == 2 and _ok(off_board) and (off_board.position == null or off_board.position > 5),
		"score_position_by_value", "%s / %s" % [t.said(by_value), t.said(off_board)])

	var around: Dictionary = await Howl.Scores.get_scores_around(str(second.score_id), 1)
	var around_default: Dictionary = await Howl.Scores.get_scores_around(75)
	t.expect(_ok(around) and around.position == 2 and around.scores_above.size() == 1 and around.scores_above[0].score == 100
		and around.scores_below.size() == 1 and around.scores_below[0].score == 50 and _ok(around_default) and around_default.position == 3 and around_default.scores_above.size() == 2 and around_default.scores_below.size() == 3,
		"scores_around", "%s / %s" % [t.said(around), t.said(around_default)])

	var weekly: Dictionary = await Howl.Scores.save_score(p1, 7, {}, "weekly")
	var current: Dictionary = await Howl.Scores.get_scores(10, "weekly")
	var previous: Dictionary = await Howl.Scores.get_scores(10, "weekly", -1)
	var p: Variant = current.period
	t.expect(_ok(weekly) and _ok(current) and current.scores.size() == 1 and p is Dictionary and p.offset == 0 and p.start is String
		and p.end is String and p.next_reset == p.end and _ok(previous) and previous.scores.size() == 0 and previous.period.offset == -1
		and previous.period.end == p.start, "time_based_period", "%s / %s" % [t.said(current), t.said(previous)])

	var odd := "a b&c#d/e?f é 狼 %s" % run_id
	var odd_saved: Dictionary = await Howl.Scores.save_score(odd, 33)
	var odd_scores: Dictionary = await Howl.Scores.get_scores_by_player(odd)
	var odd_top: Dictionary = await Howl.Scores.get_top_score_by_player(odd)
	var odd_data: Dictionary = await Howl.PlayerData.save_player_data(odd, {"ok": true})
	var odd_char: Dictionary = await Howl.PlayerData.get_character_data(odd, "Knight & Squire #2?")
	_configure({"base_url": t.env("HOWL_FAULT_URL") + "/echo"})
	var echo: Dictionary = await Howl.Scores.get_scores_by_player(odd)
	_configure()
	t.expect(_ok(odd_saved) and _ok(odd_scores) and odd_scores.scores.size() == 1 and odd_scores.scores[0].player_name == odd
		and _ok(odd_top) and odd_top.score is Dictionary and odd_top.score.player_name == odd and _ok(odd_data) and odd_data.player_name == odd
		and _ok(odd_char) and odd_char.character == "Knight & Squire #2?"
		and str(echo.get("path")).begins_with("/echo/v1/leaderboards/main/players/a%20b%26c%23d%2Fe%3Ff%20%C3%A9%20%E7%8B%BC%20"),
		"names_encoded", "%s / %s / %s / %s / path %s" % [t.said(odd_saved), t.said(odd_scores), t.said(odd_data), t.said(odd_char), echo.get("path")])

	var deleted: Dictionary = await Howl.Scores.delete_score(str(with_meta.score_id))
	board = await Howl.Scores.get_scores(0)
	var gone: Dictionary = await Howl.Scores.delete_score(str(with_meta.score_id))
	t.expect(_ok(deleted) and deleted.ok == true and _entry_of(board.scores, p2).is_empty() and t.code_of(gone) == "ScoreNotFound",
		"delete_score", "%s / again: %s" % [t.said(deleted), t.said(gone)])

	var wiped: Dictionary = await Howl.Scores.wipe_leaderboard("weekly")
	current = await Howl.Scores.get_scores(10, "weekly")
	var missing: Dictionary = await Howl.Scores.wipe_leaderboard("no-such-board")
	t.expect(_ok(wiped) and wiped.ok == true and _ok(current) and current.scores.is_empty() and t.code_of(missing) == "LeaderboardNotFound",
		"wipe_leaderboard", "%s / %s / %s" % [t.said(wiped), t.said(current), t.said(missing)])


func _entry_of(scores: Array, player_name: String) -> Dictionary:
	for entry in scores:
		if entry.get("player_name") == player_name:
			return entry
	return {}


# --- Players -------------------------------------------------------------------------------


func _players() -> void:
	# Game A: email registration with confirmation, and player sessions required on registered names.
	var howler := _howler()
	var registered: Dictionary = await Howl.Players.register_player(howler, _email(howler), PASSWORD, PASSWORD)
	var too_soon: Dictionary = await Howl.Players.login_player(howler, PASSWORD)
	t.expect(_ok(registered) and registered.confirmation_required == true and registered.player is Dictionary
		and registered.player.get("player_name") == howler and t.code_of(too_soon) == "UserNotConfirmed",
		"register_email_player", "%s / login before confirming: %s" % [t.said(registered), t.said(too_soon)])

	var code: String = await t.mail_code(_email(howler))
	var wrong: Dictionary = await Howl.Players.confirm_email(howler, "000000" if code != "000000" else "111111")
	var confirmed: Dictionary = await Howl.Players.confirm_email(howler, code)
	t.expect(code.length() == 6 and t.code_of(wrong) == "CodeMismatch" and _ok(confirmed) and confirmed.player is Dictionary
		and confirmed.player.get("state") == "CONFIRMED", "confirm_email", "%s / %s" % [t.said(wrong), t.said(confirmed)])

	var late := "late-" + run_id
	await Howl.Players.register_player(late, _email(late), PASSWORD, PASSWORD)
	var first_code: String = await t.mail_code(_email(late), 1)
	var resent: Dictionary = await Howl.Players.resend_confirmation_code(late)
	var second_code: String = await t.mail_code(_email(late), 2)
	var late_confirmed: Dictionary = await Howl.Players.confirm_email(late, second_code)
	t.expect(first_code != "" and _ok(resent) and resent.ok == true and _ok(late_confirmed), "resend_confirmation_code",
		"%s / %s" % [t.said(resent), t.said(late_confirmed)])

	# Game B: username and password, confirmed at once, sessions of 3 seconds.
	_configure({}, "B")
	var brief := "brief-" + run_id
	var plain: Dictionary = await Howl.Players.register_player(brief, "", PASSWORD, PASSWORD)
	var mismatch: Dictionary = await Howl.Players.register_player(brief + "-2", "", PASSWORD, NEW_PASSWORD)
	t.expect(_ok(plain) and plain.confirmation_required == false and plain.player.get("state") == "CONFIRMED" and t.code_of(mismatch) == "PasswordMismatch",
		"register_username_player", "%s / %s" % [t.said(plain), t.said(mismatch)])
	var short: Dictionary = await Howl.Players.login_player(brief, PASSWORD)
	var was_in: bool = Howl.Players.is_logged_in()
	await t.wait(4.0)
	var me_late: Dictionary = await Howl.Players.get_current_player()
	t.expect(_ok(short) and was_in and not Howl.Players.is_logged_in() and Howl.Players.get_player().is_empty() and t.code_of(me_late) == "NotLoggedIn",
		"session_expiry", "%s / after 4 s: %s" % [t.said(short), t.said(me_late)])

	_configure()
	var denied: Dictionary = await Howl.Players.login_player(howler, "Not-The-Pass1!")
	t.expect(t.code_of(denied) == "NotAuthorized" and not Howl.Players.is_logged_in(), "login_wrong_password", t.said(denied))

	var without: Dictionary = await Howl.Scores.save_score(howler, 5)
	var logged: Dictionary = await Howl.Players.login_player(howler, PASSWORD)
	t.expect(_ok(logged) and logged.player is Dictionary and logged.player.get("player_name") == howler and logged.expires_at is String
		and not logged.has("access_token") and not logged.has("saved_session") and Howl.Players.is_logged_in()
		and Howl.Players.get_player().get("player_name") == howler, "login_player", t.said(logged))

	var me: Dictionary = await Howl.Players.get_current_player()
	t.expect(_ok(me) and me.player_name == howler and me.email == _email(howler) and me.state == "CONFIRMED", "current_player", t.said(me))

	var with_session: Dictionary = await Howl.Scores.save_score(howler, 5)
	var data_write: Dictionary = await Howl.PlayerData.save_player_data(howler, {"level": 1})
	_configure({"base_url": t.env("HOWL_FAULT_URL") + "/echo"})
	var echo: Dictionary = await Howl.Scores.save_score(howler, 6)
	_configure()
	var bearer := str(echo.get("headers", {}).get("authorization", ""))
	t.expect(t.code_of(without) == "PlayerSessionRequired" and _ok(with_session) and _ok(data_write) and bearer.begins_with("Bearer ") and bearer.length() > 30,
		"token_sent_on_writes", "without a session: %s / with: %s / %s / bearer sent: %s" % [t.said(without), t.said(with_session), t.said(data_write), bearer.begins_with("Bearer ")])

	var reset_player := "reset-" + run_id
	await Howl.Players.register_player(reset_player, _email(reset_player), PASSWORD, PASSWORD)
	await Howl.Players.confirm_email(reset_player, await t.mail_code(_email(reset_player), 1))
	var requested: Dictionary = await Howl.Players.request_password_reset(reset_player)
	var reset_code: String = await t.mail_code(_email(reset_player), 2)
	var bad_confirm: Dictionary = await Howl.Players.confirm_password_reset(reset_player, reset_code, NEW_PASSWORD, PASSWORD)
	var reset_done: Dictionary = await Howl.Players.confirm_password_reset(reset_player, reset_code, NEW_PASSWORD, NEW_PASSWORD)
	var old_login: Dictionary = await Howl.Players.login_player(reset_player, PASSWORD)
	var new_login: Dictionary = await Howl.Players.login_player(reset_player, NEW_PASSWORD)
	t.expect(_ok(requested) and t.code_of(bad_confirm) == "PasswordMismatch" and _ok(reset_done) and reset_done.ok == true
		and t.code_of(old_login) == "NotAuthorized" and _ok(new_login), "password_reset",
		"%s / %s / %s / old: %s / new: %s" % [t.said(requested), t.said(bad_confirm), t.said(reset_done), t.said(old_login), t.said(new_login)])

	# The session is ended on the server, not only forgotten here: its token no longer works.
	await Howl.Players.login_player(howler, PASSWORD)
	_configure({"base_url": t.env("HOWL_FAULT_URL") + "/echo"})
	var token_echo: Dictionary = await Howl.ping()
	_configure()
	var token_header := str(token_echo.get("headers", {}).get("authorization", ""))
	var out: Dictionary = await Howl.Players.logout_player()
	var after: Dictionary = await Howl.Players.get_current_player()
	var direct: Dictionary = await t.get_json(t.env("HOWL_URL") + "/v1/players/me", PackedStringArray([
		"x-api-key: " + t.env("HOWL_API_KEY"), "x-game-id: " + t.env("HOWL_GAME_ID"), "authorization: " + token_header]))
	var twice: Dictionary = await Howl.Players.logout_player()
	t.expect(_ok(out) and out.ok == true and not Howl.Players.is_logged_in() and t.code_of(after) == "NotLoggedIn"
		and token_header.begins_with("Bearer ") and direct.get("status") == 401 and t.code_of(twice) == "NotLoggedIn",
		"logout_ends_session", "%s / me after: %s / the old token answers %s" % [t.said(out), t.said(after), direct.get("status")])

	# Kept logged in with a saved session: the offline and resume phases start from it.
	var remembered: Dictionary = await Howl.Players.login_player(howler, PASSWORD, true)
	t.expect(_ok(remembered) and not remembered.has("saved_session") and _saved_session_kept() and Howl.Players.is_logged_in(),
		"login_remember_me", "%s / saved: %s" % [t.said(remembered), _saved_session_kept()])


# --- Player data ---------------------------------------------------------------------------


func _player_data() -> void:
	var player := "keeper-" + run_id
	var saved: Dictionary = await Howl.PlayerData.save_player_data(player, {"level": 3, "gold": 10})
	var read: Dictionary = await Howl.PlayerData.get_player_data(player)
	t.expect(_ok(saved) and saved.version == 1 and _ok(read) and read.player_name == player and _same(read.player_data, {"level": 3, "gold": 10})
		and read.version == 1 and read.updated_at is String, "player_data_save_get", "%s / %s" % [t.said(saved), t.said(read)])

	var merged: Dictionary = await Howl.PlayerData.save_player_data(player, {"gold": 25}, false)
	t.expect(_ok(merged) and _same(merged.player_data, {"level": 3, "gold": 25}) and merged.version == 2, "player_data_merge", t.said(merged))

	var stale: Dictionary = await Howl.PlayerData.save_player_data(player, {"level": 9}, true, 1)
	var fresh: Dictionary = await Howl.PlayerData.save_player_data(player, {"level": 4, "gold": 25, "gems": 1}, true, 2)
	t.expect(t.code_of(stale) == "VersionConflict" and stale.error.get("current_version") == 2 and _ok(fresh) and fresh.version == 3,
		"player_data_if_version", "%s / %s" % [t.said(stale), t.said(fresh)])

	var trimmed: Dictionary = await Howl.PlayerData.delete_player_data(player, ["gold", "gems"])
	t.expect(_ok(trimmed) and _same(trimmed.player_data, {"level": 4}) and trimmed.version == 4, "player_data_delete_keys", t.said(trimmed))

	var cleared: Dictionary = await Howl.PlayerData.delete_player_data(player)
	read = await Howl.PlayerData.get_player_data(player)
	t.expect(_ok(cleared) and cleared.version == 0 and cleared.player_data.is_empty() and _ok(read) and read.version == 0 and read.player_data.is_empty(),
		"player_data_delete_all", "%s / %s" % [t.said(cleared), t.said(read)])

	var mage: Dictionary = await Howl.PlayerData.save_character_data(player, "Mage", {"hp": 5})
	var rogue: Dictionary = await Howl.PlayerData.save_character_data(player, "Rogue", {"hp": 3})
	var more: Dictionary = await Howl.PlayerData.save_character_data(player, "Mage", {"mp": 9}, false)
	var mage_read: Dictionary = await Howl.PlayerData.get_character_data(player, "Mage")
	var names: Dictionary = await Howl.PlayerData.get_characters(player)
	var rogue_gone: Dictionary = await Howl.PlayerData.delete_character_data(player, "Rogue")
	var mage_trim: Dictionary = await Howl.PlayerData.delete_character_data(player, "Mage", ["mp"])
	var own: Dictionary = await Howl.PlayerData.get_player_data(player)
	var sorted_names: Array = names.characters.duplicate()
	sorted_names.sort()
	t.expect(_ok(mage) and mage.character == "Mage" and _ok(rogue) and _ok(more) and _ok(mage_read) and _same(mage_read.player_data, {"hp": 5, "mp": 9})
		and mage_read.character == "Mage" and _ok(names) and sorted_names == ["Mage", "Rogue"] and _ok(rogue_gone) and rogue_gone.version == 0
		and _ok(mage_trim) and _same(mage_trim.player_data, {"hp": 5}) and own.player_data.is_empty(),
		"character_data", "%s / %s / %s / %s" % [t.said(mage_read), t.said(names), t.said(rogue_gone), t.said(mage_trim)])

	var state: Dictionary = await Howl.PlayerData.save_player_data("__game__", {"season": 2, "event": "howl-week"})
	var state_read: Dictionary = await Howl.PlayerData.get_player_data("__game__")
	t.expect(_ok(state) and _ok(state_read) and _same(state_read.player_data, {"season": 2, "event": "howl-week"}), "game_state",
		"%s / %s" % [t.said(state), t.said(state_read)])
