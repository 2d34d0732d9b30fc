extends Reference
# The built-in scenes driven as a player drives them: fill the fields, press the buttons, read
# what the scene shows. The scenario calls `yield(run(t), "completed")` with its test object.

const SCENES := "res://addons/howl/scenes/"
const PASSWORD := "Scene-Pass1"
const NEW_PASSWORD := "Scene-Pass2"
const WRONG_PASSWORD := "Wrong-Pass1"
# A scene must show a call's outcome within this time: past the plugin's own 10 s timeout.
const WAIT_MS := 15000
const WEEK_SECONDS := 7 * 86400

var _tree: SceneTree
var _howl: Node
var _run_id := ""
# What went wrong in the current check; empty when it passed.
var _problems := []


# Collects what a scene's `done` signal emits.
class Recorder:
	extends Reference
	var results := []

	func on_done(result) -> void:
		results.append(result)


func run(t) -> void:
	_tree = Engine.get_main_loop()
	_howl = _tree.root.get_node("Howl")
	_run_id = OS.get_environment("HOWL_RUN")
	randomize()
	if _run_id == "":
		_run_id = str(randi() % 1000000)
	for check in [
		["scene_leaderboard", "_leaderboard"],
		["scene_leaderboard_periods", "_leaderboard_periods"],
		["scene_login", "_login"],
		["scene_register", "_register"],
		["scene_register_username", "_register_username"],
		["scene_confirm_email", "_confirm_email"],
		["scene_reset_password", "_reset_password"],
	]:
		_problems.clear()
		yield(call(check[1]), "completed")
		if _problems.empty():
			t.pass_check(check[0])
		else:
			t.fail_check(check[0], PoolStringArray(_problems).join("; "))
		# The next check starts with nobody logged in and the scenario's game.
		_forget_player()
	_use_game("")


# --- The leaderboard -------------------------------------------------------------------------

func _leaderboard() -> void:
	_use_game("")
	var top := "Scene Top %s" % _run_id
	var second := "Scene Second %s" % _run_id
	# Near the largest score the server takes and growing with the clock, so these two lead the
	# board even after another run's scene checks saved theirs on the same server.
	var value: int = 990000000000000 + OS.get_system_time_msecs()
	var saved_top: Dictionary = yield(_howl.Scores.save_score(top, value), "completed")
	var saved_second: Dictionary = yield(_howl.Scores.save_score(second, value - 1), "completed")
	_want(saved_top.error == null and saved_second.error == null, "saving the scores failed: %s %s" % [saved_top.error, saved_second.error])

	var board = _scene("Leaderboard.tscn")
	board.max = 3
	var recorder := _recorder(board)
	_tree.root.add_child(board)
	_want(board.loading and board.loading_label.visible, "no loading state while the board loads")
	_want(board.refresh_button.disabled, "Refresh is not disabled while the board loads")
	yield(_until_false(board, "loading"), "completed")
	_want(not board.loading_label.visible, "the loading state stays after the board loaded")
	_want(not board.error_label.visible, "an error shows: %s" % board.error_label.text)
	_want(not board.periods.visible, "a board without resets shows the period switcher")
	var rows := _rows(board)
	var expected: Dictionary = yield(_howl.Scores.get_scores(3, "main"), "completed")
	var expected_scores: Array = expected.get("scores", []) if typeof(expected.get("scores")) == TYPE_ARRAY else []
	_want(rows.size() == int(min(3, expected_scores.size())) and rows.size() >= 2, "shows %d rows for max 3: %s" % [rows.size(), rows])
	_want(rows.size() >= 2 and rows[0] == ["1", top, str(value)] and rows[1] == ["2", second, str(value - 1)],
		"the saved scores are not the first rows: %s" % [rows])
	var board_rows := []
	for entry in expected_scores:
		board_rows.append([str(int(entry.position)), entry.player_name, board.format_score(entry.score)])
	_want(rows == board_rows, "the rows %s differ from the board's %s" % [rows, board_rows])
	_want(board.format_score(1e15) == "1000000000000000", "a score at the range's end reads %s" % board.format_score(1e15))
	var results: Array = recorder.results
	_want(results.size() == 1 and results[0].hash() == board.result.hash(), "done was not emitted once with the page: %s" % [results])
	board.queue_free()
	yield(_want_fits("Leaderboard.tscn", ["Card/Margin/Box/Title", "Card/Margin/Box/Refresh"]), "completed")

	# A board that does not exist: the server's message, in the error state.
	var missing = _scene("Leaderboard.tscn")
	missing.ldboard_name = "no_such_board_%s" % _run_id
	var missing_recorder := _recorder(missing)
	_tree.root.add_child(missing)
	yield(_until_false(missing, "loading"), "completed")
	_want(missing_recorder.results.empty(), "done was emitted for a board that failed to load")
	var direct: Dictionary = yield(_howl.Scores.get_scores(10, missing.ldboard_name), "completed")
	var error_label: Label = missing.error_label
	_want(direct.error != null and error_label.visible and error_label.text == str(direct.error.message),
		"a missing board shows '%s', the server says %s" % [error_label.text, direct.error])
	_want(_rows(missing).empty() and not missing.empty_label.visible, "a failed load shows rows or the empty state")
	missing.queue_free()


func _leaderboard_periods() -> void:
	_use_game("")
	var player := "Scene Weekly %s" % _run_id
	var value: int = 900000000000000 + randi() % 1000
	var saved: Dictionary = yield(_howl.Scores.save_score(player, value, {}, "weekly"), "completed")
	_want(saved.error == null, "saving a weekly score failed: %s" % [saved.error])

	var board = _scene("Leaderboard.tscn")
	board.ldboard_name = "weekly"
	_tree.root.add_child(board)
	yield(_until_false(board, "loading"), "completed")
	var period = board.result.get("period")
	_want(typeof(period) == TYPE_DICTIONARY, "the weekly board's answer has no period: %s" % [board.result])
	if typeof(period) != TYPE_DICTIONARY:
		board.queue_free()
		return
	_want(board.periods.visible, "the period switcher is hidden on a weekly board")
	_want(board.period_name.text == "This period", "the first period is '%s'" % board.period_name.text)
	var start := _unix(period.start)
	var end := _unix(period.end)
	_want(end - start == WEEK_SECONDS and OS.get_datetime_from_unix_time(start).weekday == OS.DAY_MONDAY,
		"the weekly period is not Monday to Monday: %s" % [period])
	var dates: String = board.period_dates.text
	_want(dates == _span(start, end), "the dates read '%s', expected '%s'" % [dates, _span(start, end)])
	_want(board.next.disabled and not board.previous.disabled, "at the current period, Next must be off and Previous on")
	_want(_has_row(board, player, str(value)), "the saved weekly score is not shown: %s" % [_rows(board)])

	board.previous.emit_signal("pressed")
	_want(board.loading and board.previous.disabled, "Previous is not disabled while the period loads")
	yield(_until_false(board, "loading"), "completed")
	var shown_period = board.result.get("period")
	_want(board.period_offset == -1 and typeof(shown_period) == TYPE_DICTIONARY and shown_period.get("offset") == -1.0,
		"Previous did not load period -1: %s" % [shown_period])
	_want(board.period_name.text == "Previous period", "the previous period is '%s'" % board.period_name.text)
	_want(board.period_dates.text == _span(start - WEEK_SECONDS, start), "the previous dates read '%s'" % board.period_dates.text)
	_want(_rows(board).empty() and board.empty_label.visible, "last week (before the server existed) is not shown empty: %s" % [_rows(board)])
	_want(not board.next.disabled, "Next is off on the previous period")

	board.next.emit_signal("pressed")
	yield(_until_false(board, "loading"), "completed")
	_want(board.period_name.text == "This period" and _has_row(board, player, str(value)), "Next did not come back to this period's scores")
	_want(not board.empty_label.visible, "the empty state stays on a period with scores")
	board.queue_free()


# --- The player scenes -----------------------------------------------------------------------

func _login() -> void:
	_use_game("_B")
	var player := "Scene Login %s" % _run_id
	var registered: Dictionary = yield(_howl.Players.register_player(player, "", PASSWORD, PASSWORD), "completed")
	_want(registered.error == null, "registering the player failed: %s" % [registered.error])
	var expected: Dictionary = yield(_howl.Players.login_player(player, WRONG_PASSWORD), "completed")

	var login = _scene("player_auth/Login.tscn")
	_tree.root.add_child(login)
	var recorder := _recorder(login)
	_fill({login.name_field: player, login.password_field: WRONG_PASSWORD})
	yield(_press(login, login.submit), "completed")
	var error_label: Label = login.find_node("Error")
	_want(expected.error != null and error_label.visible and error_label.text == str(expected.error.message),
		"a wrong password shows '%s', the server says %s" % [error_label.text, expected.error])
	_want(recorder.results.empty() and not _howl.Players.is_logged_in(), "a wrong password logged in or emitted done")

	_fill({login.password_field: PASSWORD})
	yield(_press(login, login.submit), "completed")
	var results: Array = recorder.results
	_want(results.size() == 1 and results[0].error == null and results[0].player.player_name == player, "done was not emitted once with the player: %s" % [results])
	_want(_howl.Players.is_logged_in() and _howl.Players.get_player().get("player_name") == player, "the player is not logged in after done")
	_want(not error_label.visible, "the old error stays after a successful login")
	_want(login.find_node("Status").text.find(player) != -1, "the scene does not say who logged in")
	_want(login.password_field.text == "", "the password stays in its field")
	login.queue_free()
	yield(_want_fits("player_auth/Login.tscn", ["Center/Card/Margin/Box/Name", "Center/Card/Margin/Box/Submit"]), "completed")


func _register() -> void:
	_use_game("")
	var player := "Scene Register %s" % _run_id
	var email := "scene-register-%s@example.com" % _run_id
	var mismatch: Dictionary = yield(_howl.Players.register_player("Scene Nobody %s" % _run_id, email, PASSWORD, NEW_PASSWORD), "completed")

	var register = _scene("player_auth/Register.tscn")
	_tree.root.add_child(register)
	var recorder := _recorder(register)
	_fill({register.name_field: player, register.email_field: email, register.password_field: PASSWORD, register.confirm_field: NEW_PASSWORD})
	yield(_press(register, register.submit), "completed")
	var error_label: Label = register.get_node("Form/Card/Margin/Box/Error")
	_want(mismatch.error != null and error_label.visible and error_label.text == str(mismatch.error.message),
		"different passwords show '%s', the server says %s" % [error_label.text, mismatch.error])

	_fill({register.password_field: PASSWORD, register.confirm_field: PASSWORD})
	yield(_press(register, register.submit), "completed")
	var step = register.confirm_step
	_want(step.visible and not register.form.visible, "the registration did not go on to the confirmation step (%s)" % error_label.text)
	_want(step.name_field.text == player and not step.name_field.editable, "the confirmation step does not hold the player's name")
	_want(step.find_node("Status").text.find(email) != -1, "the confirmation step does not say where the code went")
	_want(recorder.results.empty(), "done was emitted before the address was confirmed")
	var before: Dictionary = yield(_howl.Players.login_player(player, PASSWORD), "completed")
	_want(before.error != null and before.error.code == "UserNotConfirmed", "an unconfirmed player could log in: %s" % [before.error])

	var code: String = yield(_mail_code(email), "completed")
	_want(code != "", "no code was mailed to %s" % email)
	_fill({step.code_field: code})
	yield(_press(step, step.submit), "completed")
	var results: Array = recorder.results
	_want(results.size() == 1 and results[0].error == null and results[0].player.player_name == player, "done was not emitted once after confirming: %s" % [results])
	var after: Dictionary = yield(_howl.Players.login_player(player, PASSWORD), "completed")
	_want(after.error == null, "the registered and confirmed player cannot log in: %s" % [after.error])
	register.queue_free()


func _register_username() -> void:
	_use_game("_B")
	var player := "Scene Username %s" % _run_id
	var weak: Dictionary = yield(_howl.Players.register_player("Scene Nobody %s" % _run_id, "", "short", "short"), "completed")

	var register = _scene("player_auth/RegisterUsername.tscn")
	_tree.root.add_child(register)
	var recorder := _recorder(register)
	_fill({register.name_field: player, register.password_field: "short", register.confirm_field: "short"})
	yield(_press(register, register.submit), "completed")
	var error_label: Label = register.find_node("Error")
	_want(weak.error != null and weak.error.code == "InvalidPassword" and error_label.text == str(weak.error.message) and error_label.visible,
		"a weak password shows '%s', the server says %s" % [error_label.text, weak.error])

	_fill({register.password_field: PASSWORD, register.confirm_field: PASSWORD})
	yield(_press(register, register.submit), "completed")
	var results: Array = recorder.results
	_want(results.size() == 1 and results[0].error == null and results[0].player.player_name == player, "done was not emitted once with the player: %s" % [results])
	_want(not error_label.visible and register.find_node("Status").text.find(player) != -1, "the scene does not say the player registered")
	var login: Dictionary = yield(_howl.Players.login_player(player, PASSWORD), "completed")
	_want(login.error == null, "the registered player cannot log in: %s" % [login.error])

	# The same name again: the server's answer that it is taken.
	_fill({register.password_field: PASSWORD, register.confirm_field: PASSWORD})
	yield(_press(register, register.submit), "completed")
	_want(results.size() == 1 and error_label.visible and error_label.text != "", "a taken name shows no error")
	register.queue_free()


func _confirm_email() -> void:
	_use_game("")
	var player := "Scene Confirm %s" % _run_id
	var email := "scene-confirm-%s@example.com" % _run_id
	var registered: Dictionary = yield(_howl.Players.register_player(player, email, PASSWORD, PASSWORD), "completed")
	_want(registered.error == null and registered.get("confirmation_required") == true, "registering the player failed: %s" % [registered])
	var first_code: String = yield(_mail_code(email), "completed")

	var confirm = _scene("player_auth/ConfirmEmail.tscn")
	confirm.player_name = player
	_tree.root.add_child(confirm)
	var recorder := _recorder(confirm)
	_want(confirm.name_field.text == player, "player_name does not fill the name field")
	var error_label: Label = confirm.find_node("Error")
	yield(_press(confirm, confirm.resend), "completed")
	_want(confirm.find_node("Status").visible and not error_label.visible, "Resend does not say a code was sent (%s)" % error_label.text)
	var code: String = yield(_mail_code(email, first_code), "completed")
	_want(code != "" and code != first_code, "Resend mailed no new code")

	_fill({confirm.code_field: "111111" if code != "111111" else "222222"})
	yield(_press(confirm, confirm.submit), "completed")
	_want(error_label.visible and error_label.text != "" and recorder.results.empty(), "a wrong code shows no error")

	_fill({confirm.code_field: code})
	yield(_press(confirm, confirm.submit), "completed")
	var results: Array = recorder.results
	_want(results.size() == 1 and results[0].error == null and results[0].player.player_name == player, "done was not emitted once after confirming: %s" % [results])
	_want(not error_label.visible, "the old error stays after confirming")
	var login: Dictionary = yield(_howl.Players.login_player(player, PASSWORD), "completed")
	_want(login.error == null, "the confirmed player cannot log in: %s" % [login.error])
	confirm.queue_free()


func _reset_password() -> void:
	_use_game("")
	var player := "Scene Reset %s" % _run_id
	var email := "scene-reset-%s@example.com" % _run_id
	yield(_howl.Players.register_player(player, email, PASSWORD, PASSWORD), "completed")
	var signup_code: String = yield(_mail_code(email), "completed")
	var confirmed: Dictionary = yield(_howl.Players.confirm_email(player, signup_code), "completed")
	_want(confirmed.error == null, "confirming the player failed: %s" % [confirmed.error])

	var reset = _scene("player_auth/ResetPassword.tscn")
	_tree.root.add_child(reset)
	var recorder := _recorder(reset)
	var error_label: Label = reset.find_node("Error")
	_fill({reset.name_field: "Scene Nobody %s" % _run_id})
	yield(_press(reset, reset.request), "completed")
	_want(error_label.visible and error_label.text != "" and reset.request_step.visible, "an unknown player shows no error")

	_fill({reset.name_field: player})
	yield(_press(reset, reset.request), "completed")
	_want(not reset.request_step.visible and reset.confirm_step.visible, "the request did not go on to the code step (%s)" % error_label.text)
	var code: String = yield(_mail_code(email, signup_code), "completed")
	_want(code != "", "no reset code was mailed")

	var mismatch: Dictionary = yield(_howl.Players.confirm_password_reset(player, code, NEW_PASSWORD, PASSWORD), "completed")
	_fill({reset.code_field: code, reset.password_field: NEW_PASSWORD, reset.confirm_field: PASSWORD})
	yield(_press(reset, reset.submit), "completed")
	_want(mismatch.error != null and error_label.visible and error_label.text == str(mismatch.error.message) and recorder.results.empty(),
		"different passwords show '%s', the server says %s" % [error_label.text, mismatch.error])

	_fill({reset.password_field: NEW_PASSWORD, reset.confirm_field: NEW_PASSWORD})
	yield(_press(reset, reset.submit), "completed")
	var results: Array = recorder.results
	_want(results.size() == 1 and results[0].error == null, "done was not emitted once after the reset: %s" % [results])
	var old: Dictionary = yield(_howl.Players.login_player(player, PASSWORD), "completed")
	_want(old.error != null, "the old password still works")
	var fresh: Dictionary = yield(_howl.Players.login_player(player, NEW_PASSWORD), "completed")
	_want(fresh.error == null, "the new password does not work: %s" % [fresh.error])
	reset.queue_free()


# --- Helpers ---------------------------------------------------------------------------------

func _want(condition: bool, why: String) -> void:
	if not condition:
		_problems.append(why)


# Configures Howl for game A ("") or game B ("_B") of the runner.
func _use_game(suffix: String) -> void:
	_howl.configure({
		"api_key": OS.get_environment("HOWL_API_KEY" + suffix),
		"game_id": OS.get_environment("HOWL_GAME_ID" + suffix),
		"base_url": OS.get_environment("HOWL_URL"),
		"log_level": 2,
	})


# Logging out would also delete the device's saved session, which the scenario's later phases
# resume; configuring another game forgets the logged-in player in memory only.
func _forget_player() -> void:
	_use_game("_B")
	_use_game("")


func _scene(path: String) -> Control:
	return (load(SCENES + path) as PackedScene).instance() as Control


# The scene's done results, as they are emitted.
func _recorder(scene: Node) -> Recorder:
	var recorder := Recorder.new()
	scene.connect("done", recorder, "on_done")
	return recorder


# Types text into fields: {LineEdit: text}.
func _fill(values: Dictionary) -> void:
	for field in values:
		(field as LineEdit).text = values[field]


# Presses a button as a player would and waits for the scene's call to finish.
func _press(scene: Node, button: Button) -> void:
	button.emit_signal("pressed")
	_want(scene.busy and button.disabled, "%s is not disabled while its call is in flight" % button.name)
	yield(_until_false(scene, "busy"), "completed")


# Waits (a frame at least) until `object.property` is false, or the time is up (a problem).
func _until_false(object: Object, property: String) -> void:
	var deadline := OS.get_ticks_msec() + WAIT_MS
	yield(_tree, "idle_frame")
	while object.get(property):
		if OS.get_ticks_msec() > deadline:
			_want(false, "the scene showed no outcome within %d s" % (WAIT_MS / 1000))
			return
		yield(_tree, "idle_frame")


# Whether the scene's key controls lie inside the screen at 1920×1080 (its design size) and at
# smaller sizes, so it stays usable there. Headless, the window is tiny: each size is a viewport.
func _want_fits(path: String, controls: Array) -> void:
	for size in [Vector2(1920, 1080), Vector2(1280, 720), Vector2(800, 600)]:
		var viewport := Viewport.new()
		viewport.size = size
		_tree.root.add_child(viewport)
		var scene = _scene(path)
		viewport.add_child(scene)
		if scene.get("loading") != null:
			yield(_until_false(scene, "loading"), "completed")
		yield(_tree, "idle_frame")
		yield(_tree, "idle_frame")
		for control_path in controls:
			var control: Control = scene.get_node(control_path)
			_want(control.is_visible_in_tree() and Rect2(Vector2.ZERO, size).encloses(control.get_global_rect()),
				"%s %s at %s lies outside the %s screen" % [path, control_path, control.get_global_rect(), size])
		viewport.queue_free()


# The rows a leaderboard shows, each [position, player name, score] as text.
func _rows(board: Node) -> Array:
	var rows := []
	for row in board.entries.get_children():
		if not row.is_queued_for_deletion():
			rows.append([row.get_node("Position").text, row.get_node("PlayerName").text, row.get_node("Score").text])
	return rows


func _has_row(board: Node, player: String, score: String) -> bool:
	for row in _rows(board):
		if row[1] == player and row[2] == score:
			return true
	return false


# An ISO instant ("2026-05-04T00:00:00.000Z") as Unix seconds.
func _unix(iso) -> int:
	var text := str(iso)
	return OS.get_unix_time_from_datetime({
		"year": int(text.substr(0, 4)), "month": int(text.substr(5, 2)), "day": int(text.substr(8, 2)),
		"hour": int(text.substr(11, 2)), "minute": int(text.substr(14, 2)), "second": int(text.substr(17, 2)),
	})


# A period's dates as a player reads them, in the device's time zone (the last day included).
func _span(start: int, end: int) -> String:
	var bias := int(OS.get_time_zone_info().get("bias", 0)) * 60
	return "%s – %s" % [_date(start + bias), _date(end - 1 + bias)]


func _date(unix: int) -> String:
	var d := OS.get_datetime_from_unix_time(unix)
	return "%04d-%02d-%02d" % [d.year, d.month, d.day]


# The last code mailed to an address (other than `not_code`), from the runner's mail box.
func _mail_code(email: String, not_code := "") -> String:
	var deadline := OS.get_ticks_msec() + 10000
	yield(_tree, "idle_frame")
	while OS.get_ticks_msec() < deadline:
		var request := HTTPRequest.new()
		_tree.root.add_child(request)
		var code := ""
		if request.request(OS.get_environment("HOWL_FAULT_URL") + "/code/" + email.percent_encode()) == OK:
			var answer: Array = yield(request, "request_completed")
			if answer[1] == 200:
				var parsed := JSON.parse((answer[3] as PoolByteArray).get_string_from_utf8())
				if parsed.error == OK and typeof(parsed.result) == TYPE_DICTIONARY and typeof(parsed.result.get("code")) == TYPE_STRING:
					code = parsed.result.code
		request.queue_free()
		if code != "" and code != not_code:
			return code
		yield(_tree.create_timer(0.2), "timeout")
	return ""
