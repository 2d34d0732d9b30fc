extends RefCounted
## Players: both registration types, confirmation, login, the current player, the token on
## writes, expiry, password reset, logout, and a remembered session the next phases resume.

const TestHelper := preload("res://test_helper.gd")


func run(t: TestHelper) -> void:
	# Game A: email registration with confirmation, and player sessions required on registered names.
	t.configure_a()
	var pw := t.PASSWORD
	var new_pw := t.NEW_PASSWORD
	var howler := t.unique("howler")
	var email := "%s@example.com" % howler
	var registered: Dictionary = await Howl.Players.register_player(howler, email, pw, pw)
	var too_soon: Dictionary = await Howl.Players.login_player(howler, pw)
	t.expect(t.ok(registered) and registered.confirmation_required == true and registered.player is Dictionary
		and registered.player.get("player_name") == howler and t.code_of(too_soon) == "UserNotConfirmed",
		"register_email_player", "%s / login before confirming: %s" % [t.said(registered), t.said(too_soon)])

	var code: String = await t.mail_code(email)
	var wrong: Dictionary = await Howl.Players.confirm_email(howler, "000000" if code != "000000" else "111111")
	var confirmed: Dictionary = await Howl.Players.confirm_email(howler, code)
	t.expect(code.length() == 6 and t.code_of(wrong) == "CodeMismatch" and t.ok(confirmed) and confirmed.player is Dictionary
		and confirmed.player.get("state") == "CONFIRMED", "confirm_email", "%s / %s" % [t.said(wrong), t.said(confirmed)])

	var late := t.unique("late")
	var late_email := "%s@example.com" % late
	await Howl.Players.register_player(late, late_email, pw, pw)
	var first_code: String = await t.mail_code(late_email, 1)
	var resent: Dictionary = await Howl.Players.resend_confirmation_code(late)
	var second_code: String = await t.mail_code(late_email, 2)
	var late_confirmed: Dictionary = await Howl.Players.confirm_email(late, second_code)
	t.expect(first_code != "" and t.ok(resent) and resent.ok == true and t.ok(late_confirmed), "resend_confirmation_code",
		"%s / %s" % [t.said(resent), t.said(late_confirmed)])

	# Game B: username and password, players confirmed at once, sessions of 3 seconds.
	t.configure_b()
	var brief := t.unique("brief")
	var plain: Dictionary = await Howl.Players.register_player(brief, "", pw, pw)
	var mismatch: Dictionary = await Howl.Players.register_player(brief + "_2", "", pw, new_pw)
	t.expect(t.ok(plain) and plain.confirmation_required == false and plain.player.get("state") == "CONFIRMED" and t.code_of(mismatch) == "PasswordMismatch",
		"register_username_player", "%s / %s" % [t.said(plain), t.said(mismatch)])
	# The session of game B lasts 3 seconds: past expires_at the device counts it as logged out.
	var short: Dictionary = await Howl.Players.login_player(brief, pw)
	var was_in: bool = Howl.Players.is_logged_in()
	await t.wait(4.0)
	var me_late: Dictionary = await Howl.Players.get_current_player()
	t.expect(t.ok(short) and was_in and not Howl.Players.is_logged_in() and Howl.Players.get_player().is_empty() and t.code_of(me_late) == "NotLoggedIn",
		"session_expiry", "%s / after 4 s: %s" % [t.said(short), t.said(me_late)])

	t.configure_a()
	var denied: Dictionary = await Howl.Players.login_player(howler, "Not-The-Pass1!")
	t.expect(t.code_of(denied) == "NotAuthorized" and not Howl.Players.is_logged_in(), "login_wrong_password", t.said(denied))

	var without: Dictionary = await Howl.Scores.save_score(howler, 5)
	var logged: Dictionary = await Howl.Players.login_player(howler, pw)
	t.expect(t.ok(logged) and logged.player is Dictionary and logged.player.get("player_name") == howler and logged.expires_at is String
		and not logged.has("access_token") and not logged.has("saved_session") and Howl.Players.is_logged_in()
		and Howl.Players.get_player().get("player_name") == howler, "login_player", t.said(logged))

	var me: Dictionary = await Howl.Players.get_current_player()
	t.expect(t.ok(me) and me.player_name == howler and me.email == email and me.state == "CONFIRMED", "current_player", t.said(me))

	# Game A requires the player's session to save under a registered name.
	var with_session: Dictionary = await Howl.Scores.save_score(howler, 5)
	var data_write: Dictionary = await Howl.PlayerData.save_player_data(howler, {"level": 1})
	# The echo shows the header the plugin sent; compared, never printed.
	t.configure_a({"base_url": t.env("HOWL_FAULT_URL") + "/echo"})
	var echo: Dictionary = await Howl.Scores.save_score(howler, 6)
	t.configure_a()
	var bearer := str(echo.get("headers", {}).get("authorization", ""))
	t.expect(t.code_of(without) == "PlayerSessionRequired" and t.ok(with_session) and t.ok(data_write) and bearer.begins_with("Bearer ") and bearer.length() > 30,
		"token_sent_on_writes", "without a session: %s / with: %s / %s / bearer sent: %s" % [t.said(without), t.said(with_session), t.said(data_write), bearer.begins_with("Bearer ")])

	var reset_player := t.unique("reset")
	var reset_email := "%s@example.com" % reset_player
	await Howl.Players.register_player(reset_player, reset_email, pw, pw)
	await Howl.Players.confirm_email(reset_player, await t.mail_code(reset_email, 1))
	var requested: Dictionary = await Howl.Players.request_password_reset(reset_player)
	var reset_code: String = await t.mail_code(reset_email, 2)
	var bad_confirm: Dictionary = await Howl.Players.confirm_password_reset(reset_player, reset_code, new_pw, pw)
	var reset_done: Dictionary = await Howl.Players.confirm_password_reset(reset_player, reset_code, new_pw, new_pw)
	var old_login: Dictionary = await Howl.Players.login_player(reset_player, pw)
	var new_login: Dictionary = await Howl.Players.login_player(reset_player, new_pw)
	t.expect(t.ok(requested) and t.code_of(bad_confirm) == "PasswordMismatch" and t.ok(reset_done) and reset_done.ok == true
		and t.code_of(old_login) == "NotAuthorized" and t.ok(new_login), "password_reset",
		"%s / %s / %s / old: %s / new: %s" % [t.said(requested), t.said(bad_confirm), t.said(reset_done), t.said(old_login), t.said(new_login)])

	# Logout ends the session on the server too: the token it held no longer works.
	await Howl.Players.login_player(howler, pw)
	t.configure_a({"base_url": t.env("HOWL_FAULT_URL") + "/echo"})
	var token_echo: Dictionary = await Howl.ping()
	t.configure_a()
	var token_header := str(token_echo.get("headers", {}).get("authorization", ""))
	var out: Dictionary = await Howl.Players.logout_player()
	var after: Dictionary = await Howl.Players.get_current_player()
	var direct: Dictionary = await t.get_json(t.env("HOWL_URL") + "/v1/players/me", PackedStringArray([
		"x-api-key: " + t.env("HOWL_API_KEY"), "x-game-id: " + t.env("HOWL_GAME_ID"), "authorization: " + token_header]))
	var twice: Dictionary = await Howl.Players.logout_player()
	t.expect(t.ok(out) and out.ok == true and not Howl.Players.is_logged_in() and t.code_of(after) == "NotLoggedIn"
		and token_header.begins_with("Bearer ") and direct.get("status") == 401 and t.code_of(twice) == "NotLoggedIn",
		"logout_ends_session", "%s / me after: %s / the old token answers %s" % [t.said(out), t.said(after), direct.get("status")])

	# A logout answered 429 first is sent again with the token it was made with; the device forgets
	# the session as the call goes out.
	await Howl.Players.login_player(howler, pw)
	t.configure_a({"base_url": t.env("HOWL_FAULT_URL") + "/429"})
	var logged_out := []
	var on_logged_out := func(r: Dictionary) -> void: logged_out.append(r)
	Howl.Players.player_logged_out.connect(on_logged_out)
	Howl.Players.logout_player()
	var forgot_at_once := not Howl.Players.is_logged_in()
	var logout_started := t.now_ms()
	while logged_out.is_empty() and t.now_ms() - logout_started < 15000:
		await t.get_tree().process_frame
	Howl.Players.player_logged_out.disconnect(on_logged_out)
	t.configure_a()
	var retried: Dictionary = logged_out[0] if not logged_out.is_empty() else {}
	t.expect(forgot_at_once and t.ok(retried) and retried.get("bearer") == true, "logout_retry_carries_token",
		"forgot at once: %s / %s" % [forgot_at_once, t.said(retried)])

	# Remember me: the next two phases (new runs of the game) resume this session.
	var remembered: Dictionary = await Howl.Players.login_player(howler, pw, true)
	t.expect(t.ok(remembered) and not remembered.has("saved_session") and t.has_saved_session() and Howl.Players.is_logged_in(),
		"login_remember_me", "%s / saved: %s" % [t.said(remembered), t.has_saved_session()])
