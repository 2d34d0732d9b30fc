extends Node
## The scenario's `t`: prints `HOWL-TEST PASS <check>` / `HOWL-TEST FAIL <check>: <why>` and the
## summary (e2e/engines.md), and gives the checks the runner's environment, waits and mail codes.
## The same helper as on Godot 3, with the conveniences the scenario steps share.

## The scenario's players use these; the runner checks that neither is ever printed.
const PASSWORD := "Howl-Player-1!"
const NEW_PASSWORD := "Howl-Player-2!"

var passed := 0
var failed := 0
var _passed_names := {}
var _finished := false


func pass_check(check: String) -> void:
	# A check that several steps confirm is printed once.
	if _passed_names.has(check):
		return
	_passed_names[check] = true
	passed += 1
	print("HOWL-TEST PASS " + check)


func fail_check(check: String, why: String) -> void:
	failed += 1
	print("HOWL-TEST FAIL %s: %s" % [check, why.replace("\n", " ")])


## Passes `check` when `cond` holds, else fails it with `why`; answers `cond`.
func expect(cond: bool, check: String, why: String = "") -> bool:
	if cond:
		pass_check(check)
	else:
		fail_check(check, why if why != "" else "expectation not met")
	return cond


func finish() -> void:
	if _finished:
		return
	_finished = true
	print("HOWL-TEST DONE passed=%d failed=%d" % [passed, failed])


func is_finished() -> bool:
	return _finished


func env(key: String, fallback: String = "") -> String:
	var value := OS.get_environment(key)
	return value if value != "" else fallback


## What a failed result said, for a FAIL line (results never hold tokens or keys).
func said(result: Dictionary) -> String:
	if result.get("error") is Dictionary:
		return "%s: %s" % [result.error.get("code"), result.error.get("message")]
	return str(result)


func code_of(result: Dictionary) -> String:
	return str(result.error.get("code")) if result.get("error") is Dictionary else ""


func wait(seconds: float) -> void:
	await get_tree().create_timer(seconds).timeout


## The last code mailed to `email`, once at least `min_mails` mails reached it; "" when none.
func mail_code(email: String, min_mails: int = 1) -> String:
	var answer := await get_json("%s/code/%s?min=%d" % [env("HOWL_FAULT_URL"), email.uri_encode(), min_mails])
	return str(answer.get("code", ""))


## A plain GET outside the plugin, to look at the server the way another client would.
func get_json(url: String, headers: PackedStringArray = PackedStringArray()) -> Dictionary:
	var request := HTTPRequest.new()
	request.timeout = 10.0
	add_child(request)
	if request.request(url, headers) != OK:
		request.queue_free()
		return {"status": 0}
	var response: Array = await request.request_completed
	request.queue_free()
	var json := JSON.new()
	var data: Variant = null
	if json.parse(response[3].get_string_from_utf8()) == OK:
		data = json.data
	var answer: Dictionary = data if data is Dictionary else {}
	answer["status"] = response[1]
	return answer


# --- Conveniences for the scenario steps -----------------------------------------------------

## Game A: email registration with confirmation, deletes allowed, require_player_session, boards
## main and weekly. Level 2 logs, so the runner can check that no secret is ever printed.
func configure_a(extra: Dictionary = {}) -> void:
	_configure(env("HOWL_API_KEY"), env("HOWL_GAME_ID"), extra)


## Game B: username/password registration, sessions of 3 seconds.
func configure_b(extra: Dictionary = {}) -> void:
	_configure(env("HOWL_API_KEY_B"), env("HOWL_GAME_ID_B"), extra)


func _configure(api_key: String, game_id: String, extra: Dictionary) -> void:
	var config := {"api_key": api_key, "game_id": game_id, "base_url": env("HOWL_URL"), "log_level": 2, "timeout_seconds": 10}
	config.merge(extra, true)
	Howl.configure(config)


func run_id() -> String:
	return env("HOWL_RUN", "local")


## A player name unique to this run.
func unique(prefix: String) -> String:
	return "%s_%s" % [prefix, run_id()]


func now_ms() -> int:
	return Time.get_ticks_msec()


## True when a call answered without an error.
static func ok(result: Dictionary) -> bool:
	return result.get("error") == null


## True when the device holds a saved session of game A (the offline and resume phases use it).
func has_saved_session() -> bool:
	var file := ConfigFile.new()
	return file.load("user://howl_session.cfg") == OK and file.has_section(env("HOWL_GAME_ID"))


## Deep equality for JSON values (numbers compared as numbers, so 3 and 3.0 are the same).
static func same(a: Variant, b: Variant) -> bool:
	if (a is int or a is float) and (b is int or b is float):
		return float(a) == float(b)
	if a is Dictionary and b is Dictionary:
		if a.size() != b.size():
			return false
		for key in a:
			if not b.has(key) or not same(a[key], b[key]):
				return false
		return true
	if a is Array and b is Array:
		if a.size() != b.size():
			return false
		for i in a.size():
			if not same(a[i], b[i]):
				return false
		return true
	return typeof(a) == typeof(b) and a == b
