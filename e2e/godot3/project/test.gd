extends Reference
# The test object every scenario step gets: checks, the runner's environment, and helpers.

var passed := 0
var failed := 0
var finished := false
var env := {}
var node: Node

const ENV_KEYS = [
	"HOWL_URL", "HOWL_API_KEY", "HOWL_GAME_ID", "HOWL_API_KEY_B", "HOWL_GAME_ID_B",
	"HOWL_FAULT_URL", "HOWL_DEAD_URL", "HOWL_PHASE", "HOWL_RUN",
]
const PASSWORD = "Howl-Pass1"


func _init(host: Node) -> void:
	node = host
	for key in ENV_KEYS:
		env[key] = OS.get_environment(key)
	if env.HOWL_RUN == "":
		env.HOWL_RUN = str(OS.get_unix_time() % 100000)


func pass_check(name: String) -> void:
	passed += 1
	print("HOWL-TEST PASS %s" % name)


func fail_check(name: String, why: String) -> void:
	failed += 1
	print("HOWL-TEST FAIL %s: %s" % [name, why.replace("\n", " ")])


func expect(cond: bool, name: String, why: String = "") -> bool:
	if cond:
		pass_check(name)
	else:
		fail_check(name, why if why != "" else "expectation not met")
	return cond


func done() -> void:
	finished = true
	print("HOWL-TEST DONE passed=%d failed=%d" % [passed, failed])


# Game A: email registration with confirmation, deletes allowed, require_player_session, boards
# main and weekly. Level 2 logs, so the runner can check that no secret is ever printed.
func configure_a(extra: Dictionary = {}) -> void:
	var config := {
		"api_key": env.HOWL_API_KEY, "game_id": env.HOWL_GAME_ID, "base_url": env.HOWL_URL,
		"log_level": 2, "timeout_seconds": 10,
	}
	for key in extra:
		config[key] = extra[key]
	Howl.configure(config)


# Game B: username/password registration, sessions of 3 seconds.
func configure_b(extra: Dictionary = {}) -> void:
	var config := {
		"api_key": env.HOWL_API_KEY_B, "game_id": env.HOWL_GAME_ID_B, "base_url": env.HOWL_URL,
		"log_level": 2, "timeout_seconds": 10,
	}
	for key in extra:
		config[key] = extra[key]
	Howl.configure(config)


# A player name unique to this run.
func unique(prefix: String) -> String:
	return "%s_%s" % [prefix, env.HOWL_RUN]


# A unique name with digits only after the prefix, for names in one non-Latin script.
func unique_digits(prefix: String) -> String:
	return "%s %d" % [prefix, int(abs(env.HOWL_RUN.hash())) % 1000000]


func wait(seconds: float):
	yield(node.get_tree().create_timer(seconds), "timeout")


func now_ms() -> int:
	return OS.get_ticks_msec()


# The error code of a result, or "" when it succeeded.
static func code(result) -> String:
	if typeof(result) != TYPE_DICTIONARY or result.get("error") == null:
		return ""
	return str(result.error.get("code", "?"))


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


# A raw HTTP call outside the plugin (the mail codes, a token after logout): {status, body}.
func fetch(method: int, url: String, headers: Array = []):
	var request := HTTPRequest.new()
	node.add_child(request)
	var err := request.request(url, PoolStringArray(headers), true, method)
	if err != OK:
		request.queue_free()
		yield(node.get_tree(), "idle_frame")
		return {"status": 0, "body": null}
	var answer: Array = yield(request, "request_completed")
	request.queue_free()
	var text: String = answer[3].get_string_from_utf8()
	var body = null
	if text.strip_edges() != "" and validate_json(text) == "":
		body = JSON.parse(text).result
	return {"status": answer[1], "body": body}


# The newest 6-digit code mailed to an address, waiting (up to 5 s) for one other than `previous`.
func mail_code(email: String, previous: String = ""):
	var deadline := now_ms() + 5000
	while true:
		var answer = yield(fetch(HTTPClient.METHOD_GET, "%s/code/%s" % [env.HOWL_FAULT_URL, email.percent_encode()]), "completed")
		var found := ""
		if answer.status == 200 and typeof(answer.body) == TYPE_DICTIONARY:
			found = str(answer.body.get("code", ""))
		if found != "" and found != previous:
			return found
		if now_ms() > deadline:
			return ""
		yield(wait(0.2), "completed")
