extends RefCounted
## Howl's HTTP layer: one HTTPRequest node per call, so calls in flight never share one, and every
## outcome (refused, timed out, not JSON, 5xx, 429…) turned into a result Dictionary with `error`.

const DEFAULT_BASE_URL := "http://localhost:8080"
const DEFAULT_TIMEOUT_SECONDS := 10.0
const MAX_RETRY_AFTER_SECONDS := 5.0
## Keys whose values are never printed, in bodies, answers and headers alike.
const SECRET_KEYS := [
	"api_key", "x-api-key", "authorization", "password", "confirm_password", "access_token",
	"saved_session", "token",
]
## Codes for which a call never reached a server that could judge it.
const TRANSPORT_CODES := ["NetworkError", "Timeout", "InvalidResponse", "ServerError", "LimitExceeded"]

var api_key := ""
var game_id := ""
var log_level := 1
var game_version := ""
var base_url := DEFAULT_BASE_URL
var timeout_seconds := DEFAULT_TIMEOUT_SECONDS
## The players object: it holds the access token while a player is logged in.
var session: Node

var _host: Node
var _plugin_version := ""


func _init(host: Node, plugin_version: String) -> void:
	_host = host
	_plugin_version = plugin_version


func configure(config: Dictionary) -> void:
	api_key = _text(config.get("api_key"), "")
	game_id = _text(config.get("game_id"), "")
	log_level = clampi(int(_number(config.get("log_level"), 1)), 0, 2)
	game_version = _text(config.get("game_version"), "")
	base_url = _text(config.get("base_url"), DEFAULT_BASE_URL)
	if base_url == "":
		base_url = DEFAULT_BASE_URL
	while base_url.ends_with("/"):
		base_url = base_url.left(-1)
	timeout_seconds = _number(config.get("timeout_seconds"), DEFAULT_TIMEOUT_SECONDS)
	if timeout_seconds <= 0.0:
		timeout_seconds = DEFAULT_TIMEOUT_SECONDS
	if not is_configured():
		log_error("configure needs api_key and game_id.")
	else:
		log_info("configured for game %s at %s" % [game_id, base_url])


func is_configured() -> bool:
	return api_key != "" and game_id != ""


## A path part (a board, player or character name, a score id) percent-encoded for the URL:
## Godot puts the request line on the wire as it is given.
static func part(value: Variant) -> String:
	return str(value).uri_encode()


static func error(code: String, message: String, field: String = "") -> Dictionary:
	var err := {"code": code, "message": message}
	if field != "":
		err["field"] = field
	return err


## A result that failed before anything was sent: the fields of the answer with their empty values.
func fail(what: String, defaults: Dictionary, err: Dictionary) -> Dictionary:
	var result := defaults.duplicate(true)
	result["error"] = err
	log_error("%s failed: %s (%s)" % [what, err.message, err.code])
	return result


## Sends one call and completes with `defaults` filled from the answer, and `error`. The call
## carries `token` when one is given, else the logged-in player's token as it is now; a retry
## carries the same one.
func call_api(method: int, path: String, body: Variant, defaults: Dictionary, token: Variant = null) -> Dictionary:
	var what := "%s %s" % [_verb(method), path]
	if not is_configured():
		return fail(what, defaults, error("NotConfigured", "Call Howl.configure({\"api_key\": …, \"game_id\": …}) before using Howl."))
	if not is_instance_valid(_host) or not _host.is_inside_tree():
		return fail(what, defaults, error("NotConfigured", "Howl must run as the autoload the plugin adds."))
	var bearer := ""
	if token is String:
		bearer = token
	elif session != null:
		bearer = session.access_token()
	var outcome: Dictionary = await _send(method, path, body, bearer)
	if outcome.status == 429:
		var wait := _retry_after(outcome.headers)
		if wait >= 0.0 and wait <= MAX_RETRY_AFTER_SECONDS and _host.is_inside_tree():
			log_info("%s: too many requests, trying again in %s s" % [what, wait])
			await _host.get_tree().create_timer(wait).timeout
			outcome = await _send(method, path, body, bearer)
	var result := defaults.duplicate(true)
	if outcome.error == null:
		var data: Dictionary = outcome.data
		for key in data:
			result[key] = data[key]
		result["error"] = null
		log_info("%s: ok" % what)
	else:
		result["error"] = outcome.error
		if session != null and outcome.error.code == "SessionExpired" and outcome.sent_token:
			session.forget_session_in_memory()
		log_error("%s failed: %s (%s)" % [what, outcome.error.message, outcome.error.code])
	return result


func _send(method: int, path: String, body: Variant, token: String) -> Dictionary:
	var headers := PackedStringArray([
		"accept: application/json",
		"x-api-key: " + api_key,
		"x-game-id: " + game_id,
		"x-howl-plugin-version: " + _plugin_version,
		"x-howl-engine: " + engine_version(),
	])
	if game_version != "":
		headers.append("x-howl-game-version: " + game_version)
	if token != "":
		headers.append("authorization: Bearer " + token)
	var body_text := ""
	if body != null:
		body_text = JSON.stringify(body)
		headers.append("content-type: application/json")
	var url := base_url + path
	log_debug("→ %s %s %s %s" % [_verb(method), url, _redact_headers(headers), _redact_text(body_text)])
	var request := HTTPRequest.new()
	request.timeout = timeout_seconds
	_host.add_child(request)
	var started := request.request(url, headers, method, body_text)
	if started != OK:
		request.queue_free()
		return _outcome(0, [], null, token, error("NetworkError", "Could not send a request to %s (error %d): check base_url." % [base_url, started]))
	var response: Array = await request.request_completed
	request.queue_free()
	var result: int = response[0]
	var status: int = response[1]
	var answer_headers: PackedStringArray = response[2]
	var raw: PackedByteArray = response[3]
	if result != HTTPRequest.RESULT_SUCCESS:
		var err := _transport_error(result)
		log_debug("← %s" % err.code)
		return _outcome(0, answer_headers, null, token, err)
	var text := raw.get_string_from_utf8()
	log_debug("← %d %s" % [status, _redact_text(text)])
	var parsed: Variant = null
	if text.strip_edges() != "":
		var json := JSON.new()
		if json.parse(text) == OK:
			parsed = whole_numbers(json.data)
	var envelope: Variant = null
	if parsed is Dictionary and parsed.get("error") is Dictionary and parsed.error.get("code") is String:
		envelope = parsed.error
		if not envelope.get("message") is String:
			envelope["message"] = envelope.code
	if status >= 200 and status < 300:
		if parsed is Dictionary:
			return _outcome(status, answer_headers, parsed, token, null)
		if text.strip_edges() == "":
			return _outcome(status, answer_headers, null, token, error("InvalidResponse", "The server's answer was empty."))
		return _outcome(status, answer_headers, null, token, error("InvalidResponse", "The server's answer was not JSON: is base_url a Howl server?"))
	if envelope != null:
		return _outcome(status, answer_headers, null, token, envelope)
	if status == 429:
		return _outcome(status, answer_headers, null, token, error("LimitExceeded", "Too many requests: try again later."))
	if status >= 500:
		return _outcome(status, answer_headers, null, token, error("ServerError", "The server answered %d." % status))
	return _outcome(status, answer_headers, null, token, error("InvalidResponse", "The server answered %d without an error Howl knows: is base_url a Howl server?" % status))


func _outcome(status: int, headers: PackedStringArray, data: Variant, token: String, err: Variant) -> Dictionary:
	return {"status": status, "headers": headers, "data": data, "error": err, "sent_token": token != ""}


func _transport_error(result: int) -> Dictionary:
	match result:
		HTTPRequest.RESULT_TIMEOUT:
			return error("Timeout", "No answer from %s within %s seconds." % [base_url, timeout_seconds])
		HTTPRequest.RESULT_BODY_SIZE_LIMIT_EXCEEDED, HTTPRequest.RESULT_BODY_DECOMPRESS_FAILED, HTTPRequest.RESULT_CHUNKED_BODY_SIZE_MISMATCH, HTTPRequest.RESULT_REDIRECT_LIMIT_REACHED:
			return error("InvalidResponse", "The server's answer could not be read (result %d)." % result)
		HTTPRequest.RESULT_CANT_RESOLVE:
			return error("NetworkError", "Could not resolve the host of %s." % base_url)
		HTTPRequest.RESULT_TLS_HANDSHAKE_ERROR:
			return error("NetworkError", "The secure connection to %s failed." % base_url)
	return error("NetworkError", "Could not connect to %s." % base_url)


## Godot's JSON parser reads every number as a float: whole numbers (positions, versions, most
## scores) become ints again, so they print as `3`, not `3.0`.
static func whole_numbers(value: Variant) -> Variant:
	if value is float and value == floorf(value) and absf(value) <= 9007199254740992.0:
		return int(value)
	if value is Dictionary:
		for key in value:
			value[key] = whole_numbers(value[key])
	elif value is Array:
		for i in value.size():
			value[i] = whole_numbers(value[i])
	return value


## Seconds from a `Retry-After` header, or -1 when there is none or it is a date.
func _retry_after(headers: PackedStringArray) -> float:
	for line in headers:
		if line.to_lower().begins_with("retry-after:"):
			var value := line.substr(line.find(":") + 1).strip_edges()
			if value.is_valid_float():
				return maxf(value.to_float(), 0.0)
	return -1.0


## The engine's version as `major.minor.patch`, the form the server keeps.
static func engine_version() -> String:
	var info := Engine.get_version_info()
	return "%d.%d.%d" % [info.major, info.minor, info.patch]


func log_error(message: String) -> void:
	printerr("Howl: " + _scrub(message))


func log_info(message: String) -> void:
	if log_level >= 1:
		print("Howl: " + _scrub(message))


func log_debug(message: String) -> void:
	if log_level >= 2:
		print("Howl: " + _scrub(message))


## Removes the API key and the player's tokens from a line, whatever carried them there.
func _scrub(message: String) -> String:
	var out := message
	if api_key != "":
		out = out.replace(api_key, "***")
	if session != null:
		for secret in session.secrets():
			if secret != "":
				out = out.replace(secret, "***")
	return out


func _redact_headers(headers: PackedStringArray) -> String:
	var shown := PackedStringArray()
	for line in headers:
		var name := line.get_slice(":", 0).strip_edges().to_lower()
		shown.append(name + ": ***" if SECRET_KEYS.has(name) else line)
	return "[" + ", ".join(shown) + "]"


func _redact_text(text: String) -> String:
	if text == "":
		return ""
	var json := JSON.new()
	if json.parse(text) == OK:
		return JSON.stringify(_redact(json.data))
	return text.left(200)


func _redact(value: Variant) -> Variant:
	if value is Dictionary:
		var out := {}
		for key in value:
			out[key] = "***" if SECRET_KEYS.has(str(key).to_lower()) else _redact(value[key])
		return out
	if value is Array:
		var out := []
		for item in value:
			out.append(_redact(item))
		return out
	return value


static func _verb(method: int) -> String:
	match method:
		HTTPClient.METHOD_POST:
			return "POST"
		HTTPClient.METHOD_PUT:
			return "PUT"
		HTTPClient.METHOD_DELETE:
			return "DELETE"
		HTTPClient.METHOD_PATCH:
			return "PATCH"
	return "GET"


static func _text(value: Variant, fallback: String) -> String:
	if value is String or value is StringName:
		return str(value).strip_edges()
	if value is int or value is float:
		return str(value)
	return fallback


static func _number(value: Variant, fallback: float) -> float:
	if value is int or value is float:
		return float(value)
	if value is String and value.is_valid_float():
		return value.to_float()
	return fallback
