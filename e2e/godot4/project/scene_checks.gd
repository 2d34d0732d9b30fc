extends RefCounted
## The built-in scenes driven as a player drives them: fill the fields, press the buttons, read
## what the scene shows. The scenario calls `await run(t)` with its test object.

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
var _problems: Array[String] = []


func run(t) -> void:
	_tree = Engine.get_main_loop() as SceneTree
	_howl = _tree.root.get_node(^"Howl")
	_run_id = OS.get_environment("HOWL_RUN")
	if _run_id == "":
		_run_id = str(randi() % 1000000)
	await _check(t, "scene_leaderboard", _leaderboard)
	await _check(t, "scene_leaderboard_periods", _leaderboard_periods)
	await _check(t, "scene_login", _login)
	await _check(t, "scene_register", _register)
	await _check(t, "scene_register_username", _register_username)
	await _check(t, "scene_confirm_email", _confirm_email)
	await _check(t, "scene_reset_password", _reset_password)
	_use_game("")


func _check(t, check_name: String, body: Callable) -> void:
	_problems.clear()
	await body.call()
	if _problems.is_empty():
		t.pass_check(check_name)
	else:
		t.fail_check(check_name, "; ".join(_problems))
	# The next check starts with nobody logged in and the scenario's game.
	_forget_player()


# --- The leaderboard -------------------------------------------------------------------------

func _leaderboard() -> void:
	_use_game("")
	var top := "Scene Top %s" % _run_id
	var second := "Scene Second %s" % _run_id
	# Near the largest score the server takes and growing with the clock, so these two lead the
	# board even after another run's scene checks saved theirs on the same server.
	var value := 990000000000000 + int(Time.get_unix_time_from_system() * 1000.0)
	var saved_top: Dictionary = await _howl.Scores.save_score(top, value)
	var saved_second: Dictionary = await _howl.Scores.save_score(second, value - 1)
	_want(saved_top.error == null and saved_second.error == null, "saving the scores failed: %s %s" % [saved_top.error, saved_second.error])

	var board: Control = _scene("Leaderboard.tscn")
	board.max = 3
	var results := _results(board)
	_tree.root.add_child(board)
	_want(board.loading and board.get_node("%Loading").visible, "no loading state while the board loads")
	_want(board.get_node("%Refresh").disabled, "Refresh is not disabled while the board loads")
	await _until(func() -> bool: return not board.loading)
	_want(not board.get_node("%Loading").visible, "the loading state stays after the board loaded")
	_want(not board.get_node("%Error").visible, "an error shows: %s" % board.get_node("%Error").text)
	_want(not board.get_node("%Periods").visible, "a board without resets shows the period switcher")
	var rows := _rows(board)
	var expected: Dictionary = await _howl.Scores.get_scores(3, "main")
	_want(rows.size() == mini(3, expected.scores.size()) and rows.size() >= 2, "shows %d rows for max 3: %s" % [rows.size(), rows])
	_want(rows.size() >= 2 and rows[0] == ["1", top, str(value)] and rows[1] == ["2", second, str(value - 1)],
		"the saved scores are not the first rows: %s" % [rows])
	var board_rows := []
	for entry: Dictionary in expected.scores:
		board_rows.append([str(int(entry.position)), entry.player_name, board.format_score(entry.score)])
	_want(rows == board_rows, "the rows %s differ from the board's %s" % [rows, board_rows])
	_want(board.format_score(1e15) == "1000000000000000", "a score at the range's end reads %s" % board.format_score(1e15))
	_want(results.size() == 1 and results[0] == board.result, "done was not emitted once with the page: %s" % [results])
	board.queue_free()
	await _want_fits("Leaderboard.tscn", ["%Title", "%Refresh"])

	# A board that does not exist: the server's message, in the error state.
	var missing: Control = _scene("Leaderboard.tscn")
	missing.ldboard_name = "no_such_board_%s" % _run_id
	var missing_results := _results(missing)
	_tree.root.add_child(missing)
	await _until(func() -> bool: return not missing.loading)
	_want(missing_results.is_empty(), "done was emitted for a board that failed to load")
	var direct: Dictionary = await _howl.Scores.get_scores(10, missing.ldboard_name)
	var error_label: Label = missing.get_node("%Error")
	_want(direct.error != null and error_label.visible and error_label.text == str(direct.error.message),
		"a missing board shows '%s', the server says %s" % [error_label.text, direct.error])
	_want(_rows(missing).is_empty() and not missing.get_node("%Empty").visible, "a failed load shows rows or the empty state")
	missing.queue_free()


func _leaderboard_periods() -> void:
	_use_game("")
	var player := "Scene Weekly %s" % _run_id
	var value := 900000000000000 + randi() % 1000
	var saved: Dictionary = await _howl.Scores.save_score(player, value, {}, "weekly")
	_want(saved.error == null, "saving a weekly score failed: %s" % [saved.error])

	var board: Control = _scene("Leaderboard.tscn")
	board.ldboard_name = "weekly"
	_tree.root.add_child(board)
	await _until(func() -> bool: return not board.loading)
	var period: Variant = board.result.get("period")
	_want(period is Dictionary, "the weekly board's answer has no period: %s" % [board.result])
	if not period is Dictionary:
		board.queue_free()
		return
	_want(board.get_node("%Periods").visible, "the period switcher is hidden on a weekly board")
	_want(board.get_node("%PeriodName").text == "This period", "the first period is '%s'" % board.get_node("%PeriodName").text)
	var start := _unix(period.start)
	var end := _unix(period.end)
	_want(end - start == WEEK_SECONDS and Time.get_datetime_dict_from_unix_time(start).weekday == Time.WEEKDAY_MONDAY,
		"the weekly period is not Monday to Monday: %s" % [period])
	var dates: String = board.get_node("%PeriodDates").text
	_want(dates == _span(start, end), "the dates read '%s', expected '%s'" % [dates, _span(start, end)])
	_want(board.get_node("%Next").disabled and not board.get_node("%Previous").disabled, "at the current period, Next must be off and Previous on")
	_want(_has_row(board, player, str(value)), "the saved weekly score is not shown: %s" % [_rows(board)])

	board.get_node("%Previous").pressed.emit()
	_want(board.loading and board.get_node("%Previous").disabled, "Previous is not disabled while the period loads")
	await _until(func() -> bool: return not board.loading)
	_want(board.period_offset == -1 and board.result.get("period", {}).get("offset") == -1, "Previous did not load period -1: %s" % [board.result.get("period")])
	_want(board.get_node("%PeriodName").text == "Previous period", "the previous period is '%s'" % board.get_node("%PeriodName").text)
	_want(board.get_node("%PeriodDates").text == _span(start - WEEK_SECONDS, start), "the previous dates read '%s'" % board.get_node("%PeriodDates").text)
	_want(_rows(board).is_empty() and board.get_node("%Empty").visible, "last week (before the server existed) is not shown empty: %s" % [_rows(board)])
	_want(not board.get_node("%Next").disabled, "Next is off on the previous period")

	board.get_node("%Next").pressed.emit()
	await _until(func() -> bool: return not board.loading)
	_want(board.get_node("%PeriodName").text == "This period" and _has_row(board, player, str(value)), "Next did not come back to this period's scores")
	_want(not board.get_node("%Empty").visible, "the empty state stays on a period with scores")
	board.queue_free()


# --- The player scenes -----------------------------------------------------------------------

func _login() -> void:
	_use_game("_B")
	var player := "Scene Login %s" % _run_id
	var registered: Dictionary = await _howl.Players.register_player(player, "", PASSWORD, PASSWORD)
	_want(registered.error == null, "registering the player failed: %s" % [registered.error])
	var expected: Dictionary = await _howl.Players.login_player(player, WRONG_PASSWORD)

	var login: Control = _scene("player_auth/Login.tscn")
	_tree.root.add_child(login)
	var results := _results(login)
	_fill(login, {"%Name": player, "%Password": WRONG_PASSWORD})
	await _press(login, "%Submit")
	var error_label: Label = login.get_node("%Error")
	_want(expected.error != null and error_label.visible and error_label.text == str(expected.error.message),
		"a wrong password shows '%s', the server says %s" % [error_label.text, expected.error])
	_want(results.is_empty() and not _howl.Players.is_logged_in(), "a wrong password logged in or emitted done")

	_fill(login, {"%Password": PASSWORD})
	await _press(login, "%Submit")
	_want(results.size() == 1 and results[0].error == null and results[0].player.player_name == player, "done was not emitted once with the player: %s" % [results])
	_want(_howl.Players.is_logged_in() and _howl.Players.get_player().get("player_name") == player, "the player is not logged in after done")
	_want(not error_label.visible, "the old error stays after a successful login")
	_want(login.get_node("%Status").text.contains(player), "the scene does not say who logged in")
	_want(login.get_node("%Password").text == "", "the password stays in its field")
	login.queue_free()
	await _want_fits("player_auth/Login.tscn", ["%Name", "%Submit"])


func _register() -> void:
	_use_game("")
	var player := "Scene Register %s" % _run_id
	var email := "scene-register-%s@example.com" % _run_id
	var mismatch: Dictionary = await _howl.Players.register_player("Scene Nobody %s" % _run_id, email, PASSWORD, NEW_PASSWORD)

	var register: Control = _scene("player_auth/Register.tscn")
	_tree.root.add_child(register)
	var results := _results(register)
	_fill(register, {"%Name": player, "%Email": email, "%Password": PASSWORD, "%Confirm": NEW_PASSWORD})
	await _press(register, "%Submit")
	var error_label: Label = register.get_node("%Error")
	_want(mismatch.error != null and error_label.visible and error_label.text == str(mismatch.error.message),
		"different passwords show '%s', the server says %s" % [error_label.text, mismatch.error])

	_fill(register, {"%Password": PASSWORD, "%Confirm": PASSWORD})
	await _press(register, "%Submit")
	var step: Control = register.get_node("%ConfirmStep")
	_want(step.visible and not register.get_node("%Form").visible, "the registration did not go on to the confirmation step (%s)" % error_label.text)
	_want(step.get_node("%Name").text == player and not step.get_node("%Name").editable, "the confirmation step does not hold the player's name")
	_want(step.get_node("%Status").text.contains(email), "the confirmation step does not say where the code went")
	_want(results.is_empty(), "done was emitted before the address was confirmed")
	var before: Dictionary = await _howl.Players.login_player(player, PASSWORD)
	_want(before.error != null and before.error.code == "UserNotConfirmed", "an unconfirmed player could log in: %s" % [before.error])

	var code := await _mail_code(email)
	_want(code != "", "no code was mailed to %s" % email)
	_fill(step, {"%Code": code})
	await _press(step, "%Submit")
	_want(results.size() == 1 and results[0].error == null and results[0].player.player_name == player, "done was not emitted once after confirming: %s" % [results])
	var after: Dictionary = await _howl.Players.login_player(player, PASSWORD)
	_want(after.error == null, "the registered and confirmed player cannot log in: %s" % [after.error])
	register.queue_free()


func _register_username() -> void:
	_use_game("_B")
	var player := "Scene Username %s" % _run_id
	var weak: Dictionary = await _howl.Players.register_player("Scene Nobody %s" % _run_id, "", "short", "short")

	var register: Control = _scene("player_auth/RegisterUsername.tscn")
	_tree.root.add_child(register)
	var results := _results(register)
	_fill(register, {"%Name": player, "%Password": "short", "%Confirm": "short"})
	await _press(register, "%Submit")
	var error_label: Label = register.get_node("%Error")
	_want(weak.error != null and weak.error.code == "InvalidPassword" and error_label.text == str(weak.error.message) and error_label.visible,
		"a weak password shows '%s', the server says %s" % [error_label.text, weak.error])

	_fill(register, {"%Password": PASSWORD, "%Confirm": PASSWORD})
	await _press(register, "%Submit")
	_want(results.size() == 1 and results[0].error == null and results[0].player.player_name == player, "done was not emitted once with the player: %s" % [results])
	_want(not error_label.visible and register.get_node("%Status").text.contains(player), "the scene does not say the player registered")
	var login: Dictionary = await _howl.Players.login_player(player, PASSWORD)
	_want(login.error == null, "the registered player cannot log in: %s" % [login.error])

	# The same name again: the server's answer that it is taken.
	_fill(register, {"%Password": PASSWORD, "%Confirm": PASSWORD})
	await _press(register, "%Submit")
	_want(results.size() == 1 and error_label.visible and error_label.text != "", "a taken name shows no error")
	register.queue_free()


func _confirm_email() -> void:
	_use_game("")
	var player := "Scene Confirm %s" % _run_id
	var email := "scene-confirm-%s@example.com" % _run_id
	var registered: Dictionary = await _howl.Players.register_player(player, email, PASSWORD, PASSWORD)
	_want(registered.error == null and registered.confirmation_required == true, "registering the player failed: %s" % [registered])
	var first_code := await _mail_code(email)

	var confirm: Control = _scene("player_auth/ConfirmEmail.tscn")
	confirm.player_name = player
	_tree.root.add_child(confirm)
	var results := _results(confirm)
	_want(confirm.get_node("%Name").text == player, "player_name does not fill the name field")
	await _press(confirm, "%Resend")
	_want(confirm.get_node("%Status").visible and not confirm.get_node("%Error").visible, "Resend does not say a code was sent (%s)" % confirm.get_node("%Error").text)
	var code := await _mail_code(email, first_code)
	_want(code != "" and code != first_code, "Resend mailed no new code")

	_fill(confirm, {"%Code": "111111" if code != "111111" else "222222"})
	await _press(confirm, "%Submit")
	var error_label: Label = confirm.get_node("%Error")
	_want(error_label.visible and error_label.text != "" and results.is_empty(), "a wrong code shows no error")

	_fill(confirm, {"%Code": code})
	await _press(confirm, "%Submit")
	_want(results.size() == 1 and results[0].error == null and results[0].player.player_name == player, "done was not emitted once after confirming: %s" % [results])
	_want(not error_label.visible, "the old error stays after confirming")
	var login: Dictionary = await _howl.Players.login_player(player, PASSWORD)
	_want(login.error == null, "the confirmed player cannot log in: %s" % [login.error])
	confirm.queue_free()


func _reset_password() -> void:
	_use_game("")
	var player := "Scene Reset %s" % _run_id
	var email := "scene-reset-%s@example.com" % _run_id
	await _howl.Players.register_player(player, email, PASSWORD, PASSWORD)
	var signup_code := await _mail_code(email)
	var confirmed: Dictionary = await _howl.Players.confirm_email(player, signup_code)
	_want(confirmed.error == null, "confirming the player failed: %s" % [confirmed.error])

	var reset: Control = _scene("player_auth/ResetPassword.tscn")
	_tree.root.add_child(reset)
	var results := _results(reset)
	var error_label: Label = reset.get_node("%Error")
	_fill(reset, {"%Name": "Scene Nobody %s" % _run_id})
	await _press(reset, "%Request")
	_want(error_label.visible and error_label.text != "" and reset.get_node("%RequestStep").visible, "an unknown player shows no error")

	_fill(reset, {"%Name": player})
	await _press(reset, "%Request")
	_want(not reset.get_node("%RequestStep").visible and reset.get_node("%ConfirmStep").visible, "the request did not go on to the code step (%s)" % error_label.text)
	var code := await _mail_code(email, signup_code)
	_want(code != "", "no reset code was mailed")

	var mismatch: Dictionary = await _howl.Players.confirm_password_reset(player, code, NEW_PASSWORD, PASSWORD)
	_fill(reset, {"%Code": code, "%Password": NEW_PASSWORD, "%Confirm": PASSWORD})
	await _press(reset, "%Submit")
	_want(mismatch.error != null and error_label.visible and error_label.text == str(mismatch.error.message) and results.is_empty(),
		"different passwords show '%s', the server says %s" % [error_label.text, mismatch.error])

	_fill(reset, {"%Password": NEW_PASSWORD, "%Confirm": NEW_PASSWORD})
	await _press(reset, "%Submit")
	_want(results.size() == 1 and results[0].error == null, "done was not emitted once after the reset: %s" % [results])
	var old: Dictionary = await _howl.Players.login_player(player, PASSWORD)
	_want(old.error != null, "the old password still works")
	var fresh: Dictionary = await _howl.Players.login_player(player, NEW_PASSWORD)
	_want(fresh.error == null, "the new password does not work: %s" % [fresh.error])
	reset.queue_free()


# --- Helpers ---------------------------------------------------------------------------------

func _want(condition: bool, why: String) -> void:
	if not condition:
		_problems.append(why)


## Configures Howl for game A ("") or game B ("_B") of the runner.
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
	return (load(SCENES + path) as PackedScene).instantiate() as Control


## The scene's done results, as they are emitted.
func _results(scene: Node) -> Array:
	var results := []
	scene.done.connect(func(result: Dictionary) -> void: results.append(result))
	return results


func _fill(scene: Node, values: Dictionary) -> void:
	for path: String in values:
		(scene.get_node(path) as LineEdit).text = values[path]


## Presses a button as a player would and waits for the scene's call to finish.
func _press(scene: Node, path: String) -> void:
	var button: Button = scene.get_node(path)
	button.pressed.emit()
	_want(scene.busy and button.disabled, "%s is not disabled while its call is in flight" % path)
	await _until(func() -> bool: return not scene.busy)


func _until(condition: Callable) -> void:
	var deadline := Time.get_ticks_msec() + WAIT_MS
	while not condition.call():
		if Time.get_ticks_msec() > deadline:
			_want(false, "the scene showed no outcome within %d s" % (WAIT_MS / 1000))
			return
		await _tree.process_frame


func _frame() -> void:
	await _tree.process_frame
	await _tree.process_frame


## Whether the scene's key controls lie inside the screen at 1920×1080 (its design size) and at
## smaller sizes, so it stays usable there. Headless, the window is tiny: each size is a viewport.
func _want_fits(path: String, controls: Array[String]) -> void:
	for size: Vector2i in [Vector2i(1920, 1080), Vector2i(1280, 720), Vector2i(800, 600)]:
		var viewport := SubViewport.new()
		viewport.size = size
		_tree.root.add_child(viewport)
		var scene := _scene(path)
		viewport.add_child(scene)
		if scene.get("loading") != null:
			await _until(func() -> bool: return not scene.loading)
		await _frame()
		for control_path in controls:
			var control: Control = scene.get_node(control_path)
			_want(control.is_visible_in_tree() and Rect2(Vector2.ZERO, size).encloses(control.get_global_rect()),
				"%s %s at %s lies outside the %s screen" % [path, control_path, control.get_global_rect(), size])
		viewport.queue_free()


## The rows a leaderboard shows, each [position, player name, score] as text.
func _rows(board: Node) -> Array:
	var rows := []
	for row in board.get_node("%Entries").get_children():
		if not row.is_queued_for_deletion():
			rows.append([row.get_node("Position").text, row.get_node("PlayerName").text, row.get_node("Score").text])
	return rows


func _has_row(board: Node, player: String, score: String) -> bool:
	for row: Array in _rows(board):
		if row[1] == player and row[2] == score:
			return true
	return false


func _unix(iso: Variant) -> int:
	return Time.get_unix_time_from_datetime_string(str(iso).left(19))


## A period's dates as a player reads them, in the device's time zone (the last day included).
func _span(start: int, end: int) -> String:
	var bias := int(Time.get_time_zone_from_system().get("bias", 0)) * 60
	return "%s – %s" % [Time.get_date_string_from_unix_time(start + bias), Time.get_date_string_from_unix_time(end - 1 + bias)]


## The last code mailed to an address (other than `not_code`), from the runner's mail box.
func _mail_code(email: String, not_code := "") -> String:
	var deadline := Time.get_ticks_msec() + 10000
	while Time.get_ticks_msec() < deadline:
		var request := HTTPRequest.new()
		_tree.root.add_child(request)
		var code := ""
		if request.request(OS.get_environment("HOWL_FAULT_URL") + "/code/" + email.uri_encode()) == OK:
			var answer: Array = await request.request_completed
			var data: Variant = JSON.parse_string((answer[3] as PackedByteArray).get_string_from_utf8()) if answer[1] == 200 else null
			if data is Dictionary and data.get("code") is String:
				code = data.code
		request.queue_free()
		if code != "" and code != not_code:
			return code
		await _tree.create_timer(0.2).timeout
	return ""
