extends Node
## Howl.Players: registration, email confirmation, login (with a saved session that survives a
## restart), logout and password reset. The plugin keeps the tokens; results never carry them.

signal player_registered(result: Dictionary)
signal email_confirmed(result: Dictionary)
signal confirmation_code_sent(result: Dictionary)
signal player_logged_in(result: Dictionary)
signal session_resumed(result: Dictionary)
signal player_logged_out(result: Dictionary)
signal password_reset_requested(result: Dictionary)
signal password_reset_confirmed(result: Dictionary)
signal current_player_fetched(result: Dictionary)

const Checks := preload("checks.gd")
const SESSION_FILE := "user://howl_session.cfg"
## Errors after which a saved session is still worth trying again: the server never judged it (it
## was unreachable, or refused the game's key or its player accounts, which the developer may restore).
const KEEP_SAVED_ON := ["NetworkError", "Timeout", "InvalidResponse", "ServerError", "LimitExceeded", "InternalError", "ServiceUnavailable", "NotConfigured", "InvalidApiKey", "PlayerAuthDisabled", "NotFound"]

var _http: RefCounted
var _access_token := ""
## Unix seconds when the access token ends; 0 when it never does.
var _expires_at := 0.0
var _player := {}
var _saved_token := ""


func _init(http: RefCounted) -> void:
	_http = http


## Registers a player; pass "" as the email with the Username / password registration type.
func register_player(player_name, email, password, confirm_password) -> Dictionary:
	var defaults := {"player": null, "confirmation_required": false}
	var bad: Variant = Checks.name_error(player_name)
	if bad == null and not (email is String and password is String and confirm_password is String):
		bad = Checks._error("InvalidParameter", "The email and passwords must be text.", "password")
	var result: Dictionary
	if bad != null:
		result = _http.fail("register_player", defaults, bad)
	else:
		var body := {"player_name": player_name, "password": password, "confirm_password": confirm_password}
		if email.strip_edges() != "":
			body["email"] = email.strip_edges()
		result = await _http.call_api(HTTPClient.METHOD_POST, "/v1/players", body, defaults)
	player_registered.emit(result)
	return result


## Confirms a player's email address with the 6-digit code mailed to it.
func confirm_email(player_name, code) -> Dictionary:
	var defaults := {"player": null}
	var bad: Variant = _first([Checks.name_error(player_name), Checks.name_error(code, "code")])
	var result: Dictionary
	if bad != null:
		result = _http.fail("confirm_email", defaults, bad)
	else:
		var body := {"player_name": player_name, "code": str(code).strip_edges()}
		result = await _http.call_api(HTTPClient.METHOD_POST, "/v1/players/confirm", body, defaults)
	email_confirmed.emit(result)
	return result


## Mails a fresh confirmation code.
func resend_confirmation_code(player_name) -> Dictionary:
	var result: Dictionary = await _simple_post("resend_confirmation_code", "/v1/players/resend-code", player_name)
	confirmation_code_sent.emit(result)
	return result


## Logs a player in; with `remember_me` the session is saved on the device for `resume_session`.
func login_player(player_name, password, remember_me = false) -> Dictionary:
	var defaults := {"player": null, "expires_at": null}
	var bad: Variant = Checks.name_error(player_name)
	if bad == null and not password is String:
		bad = Checks._error("InvalidParameter", "The password must be text.", "password")
	var result: Dictionary
	if bad != null:
		result = _http.fail("login_player", defaults, bad)
	else:
		var body := {"player_name": player_name, "password": password, "remember_me": remember_me == true}
		result = await _http.call_api(HTTPClient.METHOD_POST, "/v1/players/login", body, defaults)
		if result.error == null:
			_start_session(result)
			var saved: Variant = result.get("saved_session")
			# `_start_session` turns an answer without a usable token into an error: nothing to save then.
			if remember_me == true and result.error == null and saved is Dictionary and saved.get("token") is String:
				_save_session(saved.token, saved.get("expires_at"))
		_strip_tokens(result)
	player_logged_in.emit(result)
	return result


## Trades the session saved on the device by a remember-me login for a fresh one. A network
## failure keeps it for the next try; a session the server refuses is deleted.
func resume_session() -> Dictionary:
	var defaults := {"player": null, "expires_at": null}
	var result: Dictionary
	var saved := _load_session()
	if saved.is_empty():
		result = _http.fail("resume_session", defaults, Checks._error("NoSavedSession", "There is no saved session on this device: log in.", ""))
	elif _expired(saved.expires_at):
		_delete_saved_session()
		result = _http.fail("resume_session", defaults, Checks._error("SessionExpired", "The saved session expired: log in again.", ""))
	else:
		_saved_token = saved.token
		var body := {"saved_session": saved.token}
		result = await _http.call_api(HTTPClient.METHOD_POST, "/v1/players/sessions/resume", body, defaults)
		if result.error == null:
			_start_session(result)
		elif not KEEP_SAVED_ON.has(result.error.code):
			_delete_saved_session()
		_strip_tokens(result)
	session_resumed.emit(result)
	return result


## Ends the session on the server (on every device with `everywhere`) and always on this device.
func logout_player(everywhere = false) -> Dictionary:
	var defaults := {"ok": false}
	var result: Dictionary
	if not is_logged_in():
		_delete_saved_session()
		forget_session_in_memory()
		result = _http.fail("logout_player", defaults, Checks._error("NotLoggedIn", "No player is logged in.", ""))
	else:
		# The device forgets the session as the call goes out, whatever the answer: a login that
		# answers before this logout does is not undone by it.
		var token := access_token()
		_delete_saved_session()
		forget_session_in_memory()
		result = await _http.call_api(HTTPClient.METHOD_POST, "/v1/players/logout", {"all": everywhere == true}, defaults, token)
	player_logged_out.emit(result)
	return result


## Mails a reset code; the player's current password stops working until a new one is set.
func request_password_reset(player_name) -> Dictionary:
	var result: Dictionary = await _simple_post("request_password_reset", "/v1/players/password-reset", player_name)
	password_reset_requested.emit(result)
	return result


## Sets a new password with the mailed reset code.
func confirm_password_reset(player_name, code, password, confirm_password) -> Dictionary:
	var defaults := {"ok": false}
	var bad: Variant = _first([Checks.name_error(player_name), Checks.name_error(code, "code")])
	if bad == null and not (password is String and confirm_password is String):
		bad = Checks._error("InvalidParameter", "The passwords must be text.", "password")
	var result: Dictionary
	if bad != null:
		result = _http.fail("confirm_password_reset", defaults, bad)
	else:
		var body := {"player_name": player_name, "code": str(code).strip_edges(), "password": password, "confirm_password": confirm_password}
		result = await _http.call_api(HTTPClient.METHOD_POST, "/v1/players/password-reset/confirm", body, defaults)
	password_reset_confirmed.emit(result)
	return result


## The logged-in player as the server knows them: `player_name, email, state`.
func get_current_player() -> Dictionary:
	var defaults := {"player_name": null, "email": null, "state": null}
	var result: Dictionary
	if not is_logged_in():
		result = _http.fail("get_current_player", defaults, Checks._error("NotLoggedIn", "No player is logged in.", ""))
	else:
		result = await _http.call_api(HTTPClient.METHOD_GET, "/v1/players/me", null, defaults)
	current_player_fetched.emit(result)
	return result


## Whether a player is logged in with a session that has not expired.
func is_logged_in() -> bool:
	if _access_token == "":
		return false
	if _expires_at > 0.0 and Time.get_unix_time_from_system() >= _expires_at:
		forget_session_in_memory()
		return false
	return true


## The logged-in player's Dictionary, or {} when nobody is logged in.
func get_player() -> Dictionary:
	return _player.duplicate(true) if is_logged_in() else {}


## The access token the HTTP layer sends, or "" while nobody is logged in.
func access_token() -> String:
	return _access_token if is_logged_in() else ""


## Everything the logs must never show.
func secrets() -> Array:
	return [_access_token, _saved_token]


func forget_session_in_memory() -> void:
	_access_token = ""
	_expires_at = 0.0
	_player = {}


func _start_session(result: Dictionary) -> void:
	var token: Variant = result.get("access_token")
	if not token is String or token == "":
		result["error"] = Checks._error("InvalidResponse", "The server's answer held no session.", "")
		return
	_access_token = token
	_expires_at = _unix_time(result.get("expires_at"))
	_player = result.player if result.get("player") is Dictionary else {}


func _strip_tokens(result: Dictionary) -> void:
	result.erase("access_token")
	result.erase("saved_session")


func _simple_post(what: String, path: String, player_name) -> Dictionary:
	var defaults := {"ok": false}
	var bad: Variant = Checks.name_error(player_name)
	if bad != null:
		return _http.fail(what, defaults, bad)
	return await _http.call_api(HTTPClient.METHOD_POST, path, {"player_name": player_name}, defaults)


# The saved session lives in one file, a section per game, so games sharing a device keep theirs.
func _save_session(token: String, expires_at: Variant) -> void:
	var file := ConfigFile.new()
	file.load(SESSION_FILE)
	file.set_value(_http.game_id, "token", token)
	file.set_value(_http.game_id, "expires_at", expires_at if expires_at is String else "")
	file.save(SESSION_FILE)
	_saved_token = token


func _load_session() -> Dictionary:
	var file := ConfigFile.new()
	if file.load(SESSION_FILE) != OK or not file.has_section(_http.game_id):
		return {}
	var token: Variant = file.get_value(_http.game_id, "token", "")
	var expires_at: Variant = file.get_value(_http.game_id, "expires_at", "")
	if not token is String or token == "":
		return {}
	return {"token": token, "expires_at": expires_at if expires_at is String else ""}


func _delete_saved_session() -> void:
	_saved_token = ""
	var file := ConfigFile.new()
	if file.load(SESSION_FILE) != OK or not file.has_section(_http.game_id):
		return
	file.erase_section(_http.game_id)
	file.save(SESSION_FILE)


func _expired(expires_at: Variant) -> bool:
	var at := _unix_time(expires_at)
	return at > 0.0 and Time.get_unix_time_from_system() >= at


## Unix seconds from an ISO 8601 instant such as `2026-05-01T12:00:00.000Z`; 0 for none.
static func _unix_time(iso: Variant) -> float:
	if not iso is String or iso.length() < 19:
		return 0.0
	return float(Time.get_unix_time_from_datetime_string(iso.left(19)))


func _first(errors: Array) -> Variant:
	for err in errors:
		if err != null:
			return err
	return null
