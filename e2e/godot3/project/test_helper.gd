extends Node
# The scenario's `t`: prints `HOWL-TEST PASS <check>` / `HOWL-TEST FAIL <check>: <why>` and the
# summary (e2e/engines.md), and gives the checks the runner's environment, waits and mail codes.
# The same helper as on Godot 4, with the conveniences the scenario steps share.

# The scenario's players use these; the runner checks that neither is ever printed.
const PASSWORD = "Howl-Player-1!"
const NEW_PASSWORD = "Howl-Player-2!"

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


# Passes `check` when `cond` holds, else fails it with `why`; answers `cond`.
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


# What a failed result said, for a FAIL line (results never hold tokens or keys).
func said(result) -> String:
	if typeof(result) == TYPE_DICTIONARY and typeof(result.get("error")) == TYPE_DICTIONARY:
		return "%s: %s" % [result.error.get("code"), result.error.get("message")]
	return str(result)


func code_of(result) -> String:
	if typeof(result) == TYPE_DICTIONARY and typeof(result.get("error")) == TYPE_DICTIONARY:
		return str(result.error.get("code"))
	return ""


func wait(seconds: float):
	yield(get_tree().create_timer(seconds), "timeout")


# The last code mailed to `email`, once at least `min_mails` mails reached it; "" when none.
func mail_code(email: String, min_mails: int = 1):
	var answer = yield(get_json("%s/code/%s?min=%d" % [env("HOWL_FAULT_URL"), email.percent_encode(), min_mails]), "completed")
	return str(answer.get("code", ""))


# A plain GET outside the plugin, to look at the server the way another client would.
func get_json(url: String, headers: Array = []):
	var request := HTTPRequest.new()
	request.timeout = 10
	add_child(request)
	if request.request(url, PoolStringArray(headers)) != OK:
		request.queue_free()
		yield(get_tree(), "idle_frame")
		return {"status": 0}
	var response: Array = yield(request, "request_completed")
	request.queue_free()
	var text: String = response[3].get_string_from_utf8()
	var data = null
	if text.strip_edges() != "" and validate_json(text) == "":
		data = JSON.parse(text).result
	var answer: Dictionary = data if typeof(data) == TYPE_DICTIONARY else {}
	answer["status"] = response[1]
	return answer


# --- Conveniences for the scenario steps -----------------------------------------------------

# Game A: email registration with confirmation, deletes allowed, require_player_session, boards
# main and weekly. Level 2 logs, so the runner can check that no secret is ever printed.
func configure_a(extra: Dictionary = {}) -> void:
	_configure(env("HOWL_API_KEY"), env("HOWL_GAME_ID"), extra)


# Game B: username/password registration, sessions of 3 seconds.
func configure_b(extra: Dictionary = {}) -> void:
	_configure(env("HOWL_API_KEY_B"), env("HOWL_GAME_ID_B"), extra)


func _configure(api_key: String, game_id: String, extra: Dictionary) -> void:
	var config := {"api_key": api_key, "game_id": game_id, "base_url": env("HOWL_URL"), "log_level": 2, "timeout_seconds": 10}
	for key in extra:
		config[key] = extra[key]
	Howl.configure(config)


func run_id() -> String:
	return env("HOWL_RUN", "local")


# A player name unique to this run.
func unique(prefix: String) -> String:
	return "%s_%s" % [prefix, run_id()]


# A unique name with digits only after the prefix, for names in one non-Latin script.
func unique_digits(prefix: String) -> String:
	return "%s %d" % [prefix, int(abs(run_id().hash())) % 1000000]


func now_ms() -> int:
	return OS.get_ticks_msec()


# A short description of a result for a failure line (results never hold tokens).
static func show(result) -> String:
	var text := JSON.print(result)
	return text if text.length() <= 400 else text.substr(0, 400) + "…"


# Deep equality for JSON values (numbers compared as numbers, so 3 and 3.0 are the same).
static func same(a, b) -> bool:
	if typeof(a) in [TYPE_INT, TYPE_REAL] and typeof(b) in [TYPE_INT, TYPE_REAL]:
		return float(a) == float(b)
	if typeof(a) != typeof(b):
		return false
	if typeof(a) == TYPE_DICTIONARY:
		if a.size() != b.size():
			return false
		for key in a:
			if not b.has(key) or not same(a[key], b[key]):
				return false
		return true
	if typeof(a) == TYPE_ARRAY:
		if a.size() != b.size():
			return false
		for i in range(a.size()):
			if not same(a[i], b[i]):
				return false
		return true
	return a == b
