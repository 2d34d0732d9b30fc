extends Node
# Howl.Players: registration, email confirmation, login (with a saved session that survives a
# restart), logout and password reset. The plugin keeps the tokens; results never carry them.

signal player_registered(result)
signal email_confirmed(result)
signal confirmation_code_sent(result)
signal player_logged_in(result)
signal session_resumed(result)
signal player_logged_out(result)
signal password_reset_requested(result)
signal password_reset_confirmed(result)
signal current_player_fetched(result)

const Checks = preload("res://addons/howl/checks.gd")
const SESSION_FILE = "user://howl_session.cfg"
# Errors after which a saved session is still worth trying again: the server never judged it (it
# was unreachable, or refused the game's key or its player accounts, which the developer may restore).
const KEEP_SAVED_ON = ["NetworkError", "Timeout", "InvalidResponse", "ServerError", "LimitExceeded", "InternalError", "ServiceUnavailable", "NotConfigured", "InvalidApiKey", "PlayerAuthDisabled", "NotFound"]

var client: Node

var _access_token := ""
# Unix seconds when the access token ends; 0 when it never does.
var _expires_at := 0
var _player := {}
var _saved_token := ""


# Registers a player; pass "" as the email with the Username / password registration type.
func register_player(player_name, email, password, confirm_password):
	var defaults := {"player": null, "confirmation_required": false}
	var bad = Checks.name_error(player_name)
	if bad == null and not (typeof(email) == TYPE_STRING and typeof(password) == TYPE_STRING and typeof(confirm_password) == TYPE_STRING):
		bad = Checks.error("InvalidParameter", "The email and passwords must be text.", "password")
	var result: Dictionary
	if bad != null:
		result = yield(client.fail("register_player", defaults, bad), "completed")
	else:
		var body := {"player_name": player_name, "password": password, "confirm_password": confirm_password}
		if email.strip_edges() != "":
			body["email"] = email.strip_edges()
		result = yield(client.call_api("POST", "/v1/players", body, defaults), "completed")
	emit_signal("player_registered", result)
	return result


# Confirms a player's email address with the 6-digit code mailed to it.
func confirm_email(player_name, code):
	var defaults := {"player": null}
	var bad = Checks.first([Checks.name_error(player_name), Checks.name_error(code, "code")])
	var result: Dictionary
	if bad != null:
		result = yield(client.fail("confirm_email", defaults, bad), "completed")
	else:
		var body := {"player_name": player_name, "code": str(code).strip_edges()}
		result = yield(client.call_api("POST", "/v1/players/confirm", body, defaults), "completed")
	emit_signal("email_confirmed", result)
	return result


# Mails a fresh confirmation code.
func resend_confirmation_code(player_name):
	var result: Dictionary = yield(_simple_post("resend_confirmation_code", "/v1/players/resend-code", player_name), "completed")
	emit_signal("confirmation_code_sent", result)
	return result


# Logs a player in; with `remember_me` the session is saved on the device for `resume_session`.
func login_player(player_name, password, remember_me = false):
	var defaults := {"player": null, "expires_at": null}
	var bad = Checks.name_error(player_name)
	if bad == null and typeof(password) != TYPE_STRING:
		bad = Checks.error("InvalidParameter", "The password must be text.", "password")
	var result: Dictionary
	if bad != null:
		result = yield(client.fail("login_player", defaults, bad), "completed")
	else:
		var body := {"player_name": player_name, "password": password, "remember_me": remember_me == true}
		result = yield(client.call_api("POST", "/v1/players/login", body, defaults), "completed")
		if result.error == null:
			_start_session(result)
			var saved = result.get("saved_session")
			if result.error == null and remember_me == true and typeof(saved) == TYPE_DICTIONARY and typeof(saved.get("token")) == TYPE_STRING:
				_save_session(saved.token, saved.get("expires_at"))
		_strip_tokens(result)
	emit_signal("player_logged_in", result)
	return result


# Trades the session saved on the device by a remember-me login for a fresh one. A network
# failure keeps it for the next try; a session the server refuses is deleted.
func resume_session():
	var defaults := {"player": null, "expires_at": null}
	var result: Dictionary
	var saved := _load_session()
	if saved.empty():
		result = yield(client.fail("resume_session", defaults, Checks.error("NoSavedSession", "There is no saved session on this device: log in.")), "completed")
	elif _expired(saved.expires_at):
		_delete_saved_session()
		result = yield(client.fail("resume_session", defaults, Checks.error("SessionExpired", "The saved session expired: log in again.")), "completed")
	else:
		_saved_token = saved.token
		var body := {"saved_session": saved.token}
		result = yield(client.call_api("POST", "/v1/players/sessions/resume", body, defaults), "completed")
		if result.error == null:
			_start_session(result)
		elif not result.error.code in KEEP_SAVED_ON:
			_delete_saved_session()
		_strip_tokens(result)
	emit_signal("session_resumed", result)
	return result


# Ends the session on the server (on every device with `everywhere`) and always on this device.
func logout_player(everywhere = false):
	var defaults := {"ok": false}
	var result: Dictionary
	if not is_logged_in():
		_delete_saved_session()
		forget_session_in_memory()
		result = yield(client.fail("logout_player", defaults, Checks.error("NotLoggedIn", "No player is logged in.")), "completed")
	else:
		var call_state = client.call_api("POST", "/v1/players/logout", {"all": everywhere == true}, defaults)
		# The token was sent with the request: the device forgets it now, whatever the answer.
		_delete_saved_session()
		forget_session_in_memory()
		result = yield(call_state, "completed")
	emit_signal("player_logged_out", result)
	return result


# Mails a reset code; the player's current password stops working until a new one is set.
func request_password_reset(player_name):
	var result: Dictionary = yield(_simple_post("request_password_reset", "/v1/players/password-reset", player_name), "completed")
	emit_signal("password_reset_requested", result)
	return result


# Sets a new password with the mailed reset code.
func confirm_password_reset(player_name, code, password, confirm_password):
	var defaults := {"ok": false}
	var bad = Checks.first([Checks.name_error(player_name), Checks.name_error(code, "code")])
	if bad == null and not (typeof(password) == TYPE_STRING and typeof(confirm_password) == TYPE_STRING):
		bad = Checks.error("InvalidParameter", "The passwords must be text.", "password")
	var result: Dictionary
	if bad != null:
		result = yield(client.fail("confirm_password_reset", defaults, bad), "completed")
	else:
		var body := {"player_name": player_name, "code": str(code).strip_edges(), "password": password, "confirm_password": confirm_password}
		result = yield(client.call_api("POST", "/v1/players/password-reset/confirm", body, defaults), "completed")
	emit_signal("password_reset_confirmed", result)
	return result


# The logged-in player as the server knows them: `player_name, email, state`.
func get_current_player():
	var defaults := {"player_name": null, "email": null, "state": null}
	var result: Dictionary
	if not is_logged_in():
		result = yield(client.fail("get_current_player", defaults, Checks.error("NotLoggedIn", "No player is logged in.")), "completed")
	else:
		result = yield(client.call_api("GET", "/v1/players/me", null, defaults), "completed")
	emit_signal("current_player_fetched", result)
	return result


# Whether a player is logged in with a session that has not expired.
func is_logged_in() -> bool:
	if _access_token == "":
		return false
	if _expires_at > 0 and OS.get_unix_time() >= _expires_at:
		forget_session_in_memory()
		return false
	return true


# The logged-in player's Dictionary, or {} when nobody is logged in.
func get_player() -> Dictionary:
	return _player.duplicate(true) if is_logged_in() else {}


# The access token the client sends, or "" while nobody is logged in.
func access_token() -> String:
	return _access_token if is_logged_in() else ""


# Everything the logs must never show.
func secrets() -> Array:
	return [_access_token, _saved_token]


func forget_session_in_memory() -> void:
	_access_token = ""
	_expires_at = 0
	_player = {}


func _start_session(result: Dictionary) -> void:
	var token = result.get("access_token")
	if typeof(token) != TYPE_STRING or token == "":
		result["error"] = Checks.error("InvalidResponse", "The server's answer held no session.")
		return
	_access_token = token
	_expires_at = _unix_time(result.get("expires_at"))
	_player = result.player if typeof(result.get("player")) == TYPE_DICTIONARY else {}


static func _strip_tokens(result: Dictionary) -> void:
	result.erase("access_token")
	result.erase("saved_session")


func _simple_post(what: String, path: String, player_name):
	var defaults := {"ok": false}
	var bad = Checks.name_error(player_name)
	if bad != null:
		return yield(client.fail(what, defaults, bad), "completed")
	return yield(client.call_api("POST", path, {"player_name": player_name}, defaults), "completed")


# The saved session lives in one file, a section per game, so games sharing a device keep theirs.
func _save_session(token: String, expires_at) -> void:
	var file := ConfigFile.new()
	file.load(SESSION_FILE)
	file.set_value(client.game_id, "token", token)
	file.set_value(client.game_id, "expires_at", expires_at if typeof(expires_at) == TYPE_STRING else "")
	file.save(SESSION_FILE)
	_saved_token = token


func _load_session() -> Dictionary:
	var file := ConfigFile.new()
	if client.game_id == "" or file.load(SESSION_FILE) != OK or not file.has_section(client.game_id):
		return {}
	var token = file.get_value(client.game_id, "token", "")
	var expires_at = file.get_value(client.game_id, "expires_at", "")
	if typeof(token) != TYPE_STRING or token == "":
		return {}
	return {"token": token, "expires_at": expires_at if typeof(expires_at) == TYPE_STRING else ""}


func _delete_saved_session() -> void:
	_saved_token = ""
	var file := ConfigFile.new()
	if client.game_id == "" or file.load(SESSION_FILE) != OK or not file.has_section(client.game_id):
		return
	file.erase_section(client.game_id)
	file.save(SESSION_FILE)


static func _expired(expires_at) -> bool:
	var at := _unix_time(expires_at)
	return at > 0 and OS.get_unix_time() >= at


# Unix seconds from an ISO 8601 instant such as `2026-05-01T12:00:00.000Z` (UTC); 0 for none.
static func _unix_time(iso) -> int:
	if typeof(iso) != TYPE_STRING or iso.length() < 19:
		return 0
	var date: PoolStringArray = iso.substr(0, 10).split("-")
	var time: PoolStringArray = iso.substr(11, 8).split(":")
	if date.size() != 3 or time.size() != 3:
		return 0
	return OS.get_unix_time_from_datetime({
		"year": int(date[0]), "month": int(date[1]), "day": int(date[2]),
		"hour": int(time[0]), "minute": int(time[1]), "second": int(time[2]),
	})
