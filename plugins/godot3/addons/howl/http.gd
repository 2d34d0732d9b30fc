extends Node
# The transport of every call: one HTTPRequest per call, the timeout, the 429 retry, the mapping
# of every failure to a result with `error`, the headers and the logs (secrets always hidden).

const DEFAULT_BASE_URL = "http://localhost:8080"
const MAX_RETRY_AFTER = 5.0
const HIDDEN = "***"
# Keys whose values are never printed, in requests and answers alike (compared in lower case).
const SECRET_KEYS = [
	"api_key", "x-api-key", "authorization", "password", "confirm_password", "new_password",
	"access_token", "token", "saved_session",
]

var plugin_version := ""
var api_key := ""
var game_id := ""
var log_level := 1
var game_version := ""
var base_url := DEFAULT_BASE_URL
var timeout_seconds := 10.0
# The Players node: it knows the session, so every call can carry the player's token.
var players: Node = null

# Texts printed nowhere (passwords of calls in flight), on top of the key and the tokens.
var _secrets_in_flight := []


# A signal that fires once, for whichever comes first: the answer or the timeout.
class Waiter:
	extends Reference
	signal done
	var finished := false
	var args := []

	func on_completed(result: int, status: int, headers: PoolStringArray, body: PoolByteArray) -> void:
		_finish([result, status, headers, body])

	func on_timeout() -> void:
		_finish([-1, 0, PoolStringArray(), PoolByteArray()])

	func _finish(values: Array) -> void:
		if finished:
			return
		finished = true
		args = values
		emit_signal("done")


func configure(config: Dictionary) -> void:
	api_key = str(config.get("api_key", "")).strip_edges()
	game_id = str(config.get("game_id", "")).strip_edges()
	log_level = int(clamp(_number_or(config.get("log_level"), 1), 0, 2))
	game_version = str(config.get("game_version", ""))
	var url := str(config.get("base_url", DEFAULT_BASE_URL)).strip_edges()
	while url.ends_with("/"):
		url = url.substr(0, url.length() - 1)
	base_url = url if url != "" else DEFAULT_BASE_URL
	var timeout := _number_or(config.get("timeout_seconds"), 10.0)
	timeout_seconds = timeout if timeout > 0.0 else 10.0


func is_configured() -> bool:
	return api_key != "" and game_id != ""


func engine_version() -> String:
	var info := Engine.get_version_info()
	return "%d.%d.%d" % [int(info.get("major", 0)), int(info.get("minor", 0)), int(info.get("patch", 0))]


# Percent-encodes one part of a path or a query value as UTF-8 (Godot sends the URL as given).
static func encode(part) -> String:
	return str(part).percent_encode()


# A number as the server reads it from a query string: whole numbers without a decimal point.
static func number_text(value) -> String:
	if typeof(value) == TYPE_INT:
		return str(value)
	var v := float(value)
	if v == floor(v) and abs(v) <= 1e15:
		return str(int(v))
	return JSON.print(v)


# A result that failed before anything was sent, after one idle frame so that
# yield(call, "completed") always has something to wait for.
func fail(label: String, defaults: Dictionary, err: Dictionary) -> Dictionary:
	yield(get_tree(), "idle_frame")
	return _finish(label, _failed(defaults, err))


# Sends one call and completes with `defaults` filled from the answer, and `error`. `path` holds
# its query, already encoded. Always a coroutine; never raises.
func call_api(method: String, path: String, body, defaults: Dictionary) -> Dictionary:
	var label := "%s %s" % [method, path]
	if not is_configured():
		return yield(fail(label, defaults, {
			"code": "NotConfigured",
			"message": "Call Howl.configure({\"api_key\": …, \"game_id\": …}) before using Howl.",
		}), "completed")
	var url := base_url + path
	var body_text := "" if body == null else JSON.print(body)
	var secrets := _secrets_of(body)
	for s in secrets:
		_secrets_in_flight.append(s)
	# Read once: a retry carries the token the call was made with, even if the player logged out since.
	var token := ""
	if players != null:
		token = players.access_token()
	var answer: Dictionary = yield(_attempt(method, url, body, body_text, token), "completed")
	if answer.get("retry_after", -1.0) >= 0.0:
		_log(1, "%s: too many requests, trying again in %s s" % [label, str(answer.retry_after)])
		yield(get_tree().create_timer(answer.retry_after), "timeout")
		answer = yield(_attempt(method, url, body, body_text, token), "completed")
	for s in secrets:
		_secrets_in_flight.erase(s)
	var result: Dictionary
	if answer.error != null:
		result = _failed(defaults, answer.error)
		if answer.error.code == "SessionExpired" and answer.sent_token and players != null:
			players.forget_session_in_memory()
	else:
		result = defaults.duplicate(true)
		var data: Dictionary = answer.data
		for key in data:
			result[key] = data[key]
		result["error"] = null
	return _finish(label, result)


# A query string from ordered pairs: numbers as the server reads them, text percent-encoded.
static func query(pairs: Array) -> String:
	var parts := []
	for i in range(0, pairs.size() - 1, 2):
		var value = pairs[i + 1]
		if value == null:
			continue
		var text: String = number_text(value) if typeof(value) in [TYPE_INT, TYPE_REAL] else str(value)
		parts.append("%s=%s" % [encode(pairs[i]), encode(text)])
	return "" if parts.empty() else "?" + PoolStringArray(parts).join("&")


# One HTTP exchange on its own HTTPRequest node, ended by the answer or by the timeout.
func _attempt(method: String, url: String, body, body_text: String, token: String) -> Dictionary:
	var headers := PoolStringArray([
		"x-api-key: " + api_key,
		"x-game-id: " + game_id,
		"x-howl-plugin-version: " + plugin_version,
		"x-howl-engine: " + engine_version(),
		"accept: application/json",
	])
	if game_version != "":
		headers.append("x-howl-game-version: " + game_version)
	if token != "":
		headers.append("authorization: Bearer " + token)
	if body != null:
		headers.append("content-type: application/json")
	if log_level >= 2:
		var shown := "" if body == null else " " + scrub_text(JSON.print(scrub(body)))
		_log(2, "→ %s %s%s" % [method, url, shown])
	var request := HTTPRequest.new()
	request.use_threads = false
	add_child(request)
	var waiter := Waiter.new()
	request.connect("request_completed", waiter, "on_completed")
	var timer := get_tree().create_timer(timeout_seconds)
	timer.connect("timeout", waiter, "on_timeout")
	var err := request.request(url, headers, true, _method_of(method), body_text)
	if err != OK:
		waiter._finish([HTTPRequest.RESULT_CANT_CONNECT, 0, PoolStringArray(), PoolByteArray()])
	if not waiter.finished:
		yield(waiter, "done")
	else:
		yield(get_tree(), "idle_frame")
	if timer.is_connected("timeout", waiter, "on_timeout"):
		timer.disconnect("timeout", waiter, "on_timeout")
	request.cancel_request()
	request.queue_free()
	var answer := _read(waiter.args[0], waiter.args[1], waiter.args[2], waiter.args[3])
	answer["sent_token"] = token != ""
	return answer


# Maps what HTTPRequest reported to {error, data} (and retry_after on a short 429).
func _read(result: int, status: int, headers: PoolStringArray, raw: PoolByteArray) -> Dictionary:
	if result == -1:
		return _error_answer("Timeout", "Howl did not answer within %s seconds." % str(timeout_seconds))
	if result != HTTPRequest.RESULT_SUCCESS:
		var why := {
			HTTPRequest.RESULT_CANT_CONNECT: "could not connect",
			HTTPRequest.RESULT_CANT_RESOLVE: "could not resolve the host",
			HTTPRequest.RESULT_CONNECTION_ERROR: "the connection failed",
			HTTPRequest.RESULT_SSL_HANDSHAKE_ERROR: "the TLS handshake failed",
			HTTPRequest.RESULT_NO_RESPONSE: "no answer",
			HTTPRequest.RESULT_BODY_SIZE_LIMIT_EXCEEDED: "the answer was too large",
			HTTPRequest.RESULT_REDIRECT_LIMIT_REACHED: "too many redirects",
		}
		var code := "InvalidResponse" if result in [HTTPRequest.RESULT_BODY_SIZE_LIMIT_EXCEEDED, HTTPRequest.RESULT_CHUNKED_BODY_SIZE_MISMATCH] else "NetworkError"
		return _error_answer(code, "Could not reach Howl at %s: %s (%d)." % [base_url, why.get(result, "network error"), result])
	var text := raw.get_string_from_utf8()
	if log_level >= 2:
		_log(2, "← %d %s" % [status, _shown_answer(text)])
	var parsed = null
	if text.strip_edges() != "" and validate_json(text) == "":
		parsed = whole_numbers(JSON.parse(text).result)
	var envelope = parsed.get("error") if typeof(parsed) == TYPE_DICTIONARY else null
	if status == 429:
		var wait := _retry_after(headers)
		if wait >= 0.0 and wait <= MAX_RETRY_AFTER:
			var again := _error_answer("LimitExceeded", "Too many requests.")
			again["retry_after"] = wait
			return again
	if typeof(envelope) == TYPE_DICTIONARY and envelope.has("code") and (status < 200 or status >= 300):
		var error := {}
		for key in envelope:
			error[key] = envelope[key]
		error["code"] = str(envelope.code)
		error["message"] = str(envelope.get("message", envelope.code))
		return {"error": error, "data": {}}
	if status == 429:
		return _error_answer("LimitExceeded", "Too many requests; try again later.")
	if status >= 500:
		return _error_answer("ServerError", "Howl answered %d." % status)
	if status < 200 or status >= 300:
		return _error_answer("InvalidResponse", "Howl answered %d without an error." % status)
	if text.strip_edges() == "":
		return _error_answer("InvalidResponse", "Howl's answer was empty.")
	if typeof(parsed) != TYPE_DICTIONARY:
		return _error_answer("InvalidResponse", "Howl's answer was not a JSON object.")
	return {"error": null, "data": parsed}


# Godot's JSON parser reads every number as a float: whole numbers (positions, versions, most
# scores) become ints again, as on Godot 4.
static func whole_numbers(value):
	if typeof(value) == TYPE_REAL and value == floor(value) and abs(value) <= 9007199254740992.0:
		return int(value)
	if typeof(value) == TYPE_DICTIONARY:
		for key in value.keys():
			value[key] = whole_numbers(value[key])
	elif typeof(value) == TYPE_ARRAY:
		for i in range(value.size()):
			value[i] = whole_numbers(value[i])
	return value


static func _error_answer(code: String, message: String) -> Dictionary:
	return {"error": {"code": code, "message": message}, "data": {}}


static func _retry_after(headers: PoolStringArray) -> float:
	for line in headers:
		var colon: int = line.find(":")
		if colon > 0 and line.substr(0, colon).strip_edges().to_lower() == "retry-after":
			var value: String = line.substr(colon + 1).strip_edges()
			if value.is_valid_float():
				return max(0.0, float(value))
	return -1.0


static func _method_of(method: String) -> int:
	match method:
		"POST":
			return HTTPClient.METHOD_POST
		"PUT":
			return HTTPClient.METHOD_PUT
		"DELETE":
			return HTTPClient.METHOD_DELETE
		"PATCH":
			return HTTPClient.METHOD_PATCH
	return HTTPClient.METHOD_GET


static func _failed(defaults: Dictionary, error: Dictionary) -> Dictionary:
	var result := defaults.duplicate(true)
	result["error"] = error
	return result


static func _number_or(value, fallback: float) -> float:
	if typeof(value) in [TYPE_INT, TYPE_REAL]:
		return float(value)
	if typeof(value) == TYPE_STRING and value.is_valid_float():
		return float(value)
	return fallback


# The result leaves here: one info line per call, failures at every level.
func _finish(label: String, result: Dictionary) -> Dictionary:
	if result.error != null:
		_log(0, "%s failed: %s (%s)" % [label, str(result.error.get("message", "")), str(result.error.get("code", ""))])
	else:
		_log(1, "%s: ok" % label)
	return result


func _log(level: int, text: String) -> void:
	if level > log_level:
		return
	var line := "[Howl] " + scrub_text(text)
	# Debug lines show what was sent and answered, not a whole 40 KB document.
	if line.length() > 2000:
		line = line.substr(0, 2000) + "…"
	if level == 0:
		printerr(line)
	else:
		print(line)


# A copy of a request or an answer with every secret value replaced by ***.
static func scrub(value):
	match typeof(value):
		TYPE_DICTIONARY:
			var copy := {}
			for key in value:
				if str(key).to_lower() in SECRET_KEYS and value[key] != null:
					copy[key] = HIDDEN
				else:
					copy[key] = scrub(value[key])
			return copy
		TYPE_ARRAY:
			var items := []
			for item in value:
				items.append(scrub(item))
			return items
	return value


# The last guard: any known secret left in a line becomes ***.
func scrub_text(text: String) -> String:
	var secrets := _secrets_in_flight.duplicate()
	secrets.append(api_key)
	if players != null:
		secrets += players.secrets()
	for s in secrets:
		if typeof(s) == TYPE_STRING and s.length() >= 4:
			text = text.replace(s, HIDDEN)
	return text


func _shown_answer(text: String) -> String:
	if text.strip_edges() != "" and validate_json(text) == "":
		var parsed = JSON.parse(text).result
		if typeof(parsed) == TYPE_DICTIONARY or typeof(parsed) == TYPE_ARRAY:
			return JSON.print(scrub(parsed))
	if text.length() > 200:
		return text.substr(0, 200) + "…"
	return text


static func _secrets_of(body) -> Array:
	var found := []
	if typeof(body) == TYPE_DICTIONARY:
		for key in body:
			if str(key).to_lower() in SECRET_KEYS and typeof(body[key]) == TYPE_STRING and body[key] != "":
				found.append(body[key])
	return found
