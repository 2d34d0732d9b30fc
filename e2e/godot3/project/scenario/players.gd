extends Reference
# Players: both registration types, confirmation, login, the current player, the token on
# writes, expiry, password reset, logout, and a remembered session the next phases resume.


func run(t):
	t.configure_a()
	var pw: String = t.PASSWORD
	var new_pw: String = t.NEW_PASSWORD
	var email_name = t.unique("howler")
	var email: String = "%s@example.com" % email_name
	var registered = yield(Howl.Players.register_player(email_name, email, pw, pw), "completed")
	t.expect(
		registered.error == null and registered.confirmation_required == true
		and typeof(registered.player) == TYPE_DICTIONARY and registered.player.get("state") == "UNCONFIRMED",
		"register_email_player", t.show(registered))

	var unconfirmed = yield(Howl.Players.login_player(email_name, pw), "completed")
	var code = yield(t.mail_code(email, 1), "completed")
	var wrong_code = yield(Howl.Players.confirm_email(email_name, "000000" if code != "000000" else "111111"), "completed")
	var confirmed = yield(Howl.Players.confirm_email(email_name, code), "completed")
	t.expect(
		t.code_of(unconfirmed) == "UserNotConfirmed" and t.code_of(wrong_code) == "CodeMismatch"
		and confirmed.error == null and confirmed.player.get("state") == "CONFIRMED",
		"confirm_email", "%s / %s / %s" % [t.show(unconfirmed), t.show(wrong_code), t.show(confirmed)])

	var other_name = t.unique("waiting")
	var other_email: String = "%s@example.com" % other_name
	yield(Howl.Players.register_player(other_name, other_email, pw, pw), "completed")
	var first_code = yield(t.mail_code(other_email, 1), "completed")
	var resent = yield(Howl.Players.resend_confirmation_code(other_name), "completed")
	var second_code = yield(t.mail_code(other_email, 2), "completed")
	var stale = yield(Howl.Players.resend_confirmation_code(t.unique("ghost")), "completed")
	t.expect(
		resent.error == null and resent.ok == true and second_code != "" and second_code != first_code
		and t.code_of(stale) == "PlayerNotFound",
		"resend_confirmation_code", "%s / %s" % [t.show(resent), t.show(stale)])

	# Game B: username and password, players confirmed at once, sessions of 3 seconds.
	t.configure_b()
	var user = t.unique("wolf")
	var made = yield(Howl.Players.register_player(user, "", pw, pw), "completed")
	var taken = yield(Howl.Players.register_player(user, "", pw, pw), "completed")
	var mismatch = yield(Howl.Players.register_player(t.unique("cub"), "", pw, pw + "x"), "completed")
	t.expect(
		made.error == null and made.confirmation_required == false and made.player.get("player_name") == user
		and t.code_of(taken) == "PlayerNameTaken" and t.code_of(mismatch) == "PasswordMismatch",
		"register_username_player", "%s / %s / %s" % [t.show(made), t.show(taken), t.show(mismatch)])

	var wrong = yield(Howl.Players.login_player(user, "Wrong-Pass1"), "completed")
	t.expect(t.code_of(wrong) == "NotAuthorized" and not Howl.Players.is_logged_in() and Howl.Players.get_player().empty(), "login_wrong_password", t.show(wrong))

	var logged = yield(Howl.Players.login_player(user, pw), "completed")
	t.expect(
		logged.error == null and logged.player.get("player_name") == user and typeof(logged.expires_at) == TYPE_STRING
		and not logged.has("access_token") and not logged.has("saved_session")
		and Howl.Players.is_logged_in() and Howl.Players.get_player().get("player_name") == user,
		"login_player", t.show(logged))

	var me = yield(Howl.Players.get_current_player(), "completed")
	t.expect(me.error == null and me.player_name == user and me.state == "CONFIRMED", "current_player", t.show(me))

	# The session of game B lasts 3 seconds: past expires_at the device counts it as logged out.
	yield(t.wait(3.5), "completed")
	var expired_me = yield(Howl.Players.get_current_player(), "completed")
	t.expect(not Howl.Players.is_logged_in() and t.code_of(expired_me) == "NotLoggedIn" and Howl.Players.get_player().empty(), "session_expiry", t.show(expired_me))

	# Game A requires the player's session to save under a registered name.
	t.configure_a()
	var login_a = yield(Howl.Players.login_player(email_name, pw), "completed")
	var with_token = yield(Howl.Scores.save_score(email_name, 42), "completed")
	var data_with_token = yield(Howl.PlayerData.save_player_data(email_name, {"hp": 3}), "completed")
	# The echo shows the header the plugin sent; compared, never printed.
	t.configure_a({"base_url": t.env("HOWL_FAULT_URL") + "/echo"})
	var echo = yield(Howl.Scores.save_score(email_name, 44), "completed")
	t.configure_a()
	var bearer := str(echo.get("headers", {}).get("authorization", ""))
	yield(Howl.Players.logout_player(), "completed")
	var without_token = yield(Howl.Scores.save_score(email_name, 43), "completed")
	var data_without = yield(Howl.PlayerData.save_player_data(email_name, {"hp": 4}), "completed")
	t.expect(
		login_a.error == null and with_token.error == null and data_with_token.error == null
		and bearer.begins_with("Bearer ") and bearer.length() > 30
		and t.code_of(without_token) == "PlayerSessionRequired" and t.code_of(data_without) == "PlayerSessionRequired",
		"token_sent_on_writes", "%s / %s / %s / %s / bearer sent: %s" % [t.show(with_token), t.show(data_with_token), t.show(without_token), t.show(data_without), str(bearer.begins_with("Bearer "))])

	var requested = yield(Howl.Players.request_password_reset(email_name), "completed")
	var old_password = yield(Howl.Players.login_player(email_name, pw), "completed")
	var reset_code = yield(t.mail_code(email, 2), "completed")
	var reset = yield(Howl.Players.confirm_password_reset(email_name, reset_code, new_pw, new_pw), "completed")
	var with_old = yield(Howl.Players.login_player(email_name, pw), "completed")
	var with_new = yield(Howl.Players.login_player(email_name, new_pw), "completed")
	t.expect(
		requested.error == null and requested.ok == true and t.code_of(old_password) == "PasswordResetRequired"
		and reset.error == null and reset.ok == true and t.code_of(with_old) == "NotAuthorized" and with_new.error == null,
		"password_reset", "%s / %s / %s / %s / %s" % [t.show(requested), t.show(old_password), t.show(reset), t.show(with_old), t.show(with_new)])

	# Logout ends the session on the server too: the token it held no longer works.
	var token: String = Howl.Players.access_token()
	var out = yield(Howl.Players.logout_player(), "completed")
	var answer = yield(t.get_json(t.env("HOWL_URL") + "/v1/players/me", [
		"x-api-key: " + t.env("HOWL_API_KEY"), "x-game-id: " + t.env("HOWL_GAME_ID"), "authorization: Bearer " + token,
	]), "completed")
	var twice = yield(Howl.Players.logout_player(), "completed")
	var server_code := ""
	if typeof(answer.get("error")) == TYPE_DICTIONARY:
		server_code = str(answer.error.get("code"))
	t.expect(
		token != "" and out.error == null and out.ok == true and not Howl.Players.is_logged_in()
		and answer.status == 401 and server_code == "SessionExpired" and t.code_of(twice) == "NotLoggedIn",
		"logout_ends_session", "%s / %d %s / %s" % [t.show(out), answer.status, server_code, t.show(twice)])

	# A logout answered 429 first is sent again with the token it was made with; the device forgets
	# the session as the call goes out.
	yield(Howl.Players.login_player(email_name, new_pw), "completed")
	t.configure_a({"base_url": t.env("HOWL_FAULT_URL") + "/429"})
	var logout_call = Howl.Players.logout_player()
	var forgot_at_once: bool = not Howl.Players.is_logged_in()
	var retried = yield(logout_call, "completed")
	t.configure_a()
	t.expect(forgot_at_once and retried.error == null and retried.get("bearer") == true, "logout_retry_carries_token",
		"forgot at once: %s / %s" % [str(forgot_at_once), t.show(retried)])

	# Remember me: the next two phases (new runs of the game) resume this session.
	var remembered = yield(Howl.Players.login_player(email_name, new_pw, true), "completed")
	var file := ConfigFile.new()
	var loaded := file.load("user://howl_session.cfg")
	var saved_token = file.get_value(t.env("HOWL_GAME_ID"), "token", "") if loaded == OK else ""
	t.expect(
		remembered.error == null and Howl.Players.is_logged_in() and typeof(saved_token) == TYPE_STRING and saved_token != ""
		and not remembered.has("saved_session"),
		"login_remember_me", "%s / file %d" % [t.show(remembered), loaded])
