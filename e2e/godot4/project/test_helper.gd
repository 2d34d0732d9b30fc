extends Node
## The scenario's `t`: prints `HOWL-TEST PASS <check>` / `HOWL-TEST FAIL <check>: <why>` and the
## summary (e2e/engines.md), and gives the checks the runner's environment, waits and mail codes.

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
