extends Node
# A client written for Howl's tests from docs of the SilentWolf wire protocol (no plugin code): it sends
# what SilentWolf plugin 0.6.20 sends on Godot 3 (two headers on score calls, four on player calls,
# `version=` and `game_version`, `Null` for an absent value, to_json bodies, the digest with epoch
# milliseconds on post_new_score, names raw in the get_player_data path) and reads each answer field as
# the plugin does, unconditionally, so a missing field is a script error in the log.
# Prints one `SW-RESULT {json}` line per step (what it read), `SW-MISSING <step>` for a step that did not
# finish, then `SW-DONE`. Environment: SW_URL, SW_API_KEY, SW_GAME_ID, SW_RUN, SW_PHASE, SW_DELETE_ID.

const PLUGIN_VERSION = "0.6.20"
const GAME_VERSION = "0.0.0"
const STEP_TIMEOUT = 10.0

var url = OS.get_environment("SW_URL")
var api_key = OS.get_environment("SW_API_KEY")
var game_id = OS.get_environment("SW_GAME_ID")
var run = OS.get_environment("SW_RUN")
var saved = {}
var _done = {}

# The players of the scenario; `special` goes raw into a request line.
var special = "HW Fox&Co ü " + run
var bo = "Bo" + run
var cy = "Cy" + run
var account = "swp" + run
var account_password = "Howl.Pass.9x"


func _ready():
	randomize()
	var phase = OS.get_environment("SW_PHASE")
	var steps = []
	if phase == "main":
		steps = ["bad_key", "save_scores", "top_scores", "by_player", "top_by_player", "position",
			"around", "deletes_refused", "register", "login", "validate", "reset", "player_data"]
	elif phase == "resume":
		steps = ["resume_session", "delete_and_wipe"]
	for step in steps:
		yield(_step(step), "completed")
	print("SW-DONE")
	get_tree().quit(0)


func _step(step):
	yield(get_tree(), "idle_frame")
	_done[step] = false
	_run_one(step)
	var waited = 0.0
	while not _done[step] and waited < STEP_TIMEOUT:
		yield(get_tree().create_timer(0.05), "timeout")
		waited += 0.05
	if not _done[step]:
		print("SW-MISSING " + step)


func _run_one(step):
	var state = call("step_" + step)
	if state is GDScriptFunctionState:
		yield(state, "completed")
	_done[step] = true


func report(step, values):
	values["step"] = step
	print("SW-RESULT " + to_json(values))


# --- transport: score calls send two headers, player calls four, the saved-session check two ---

func headers(kind, post, digest_values):
	var h = PoolStringArray()
	if post or kind == "auth" or kind == "session":
		h.append("Content-Type: application/json")
	h.append("x-api-key: " + api_key)
	if kind == "auth" or kind == "players":
		h.append("x-sw-game-id: " + game_id)
	h.append("x-sw-plugin-version: " + PLUGIN_VERSION)
	if kind == "auth" or kind == "players":
		h.append("x-sw-godot-version: " + str(Engine.get_version_info()["string"]))
	if digest_values.size() > 0:
		# Epoch milliseconds; Godot 3's str() writes a whole float without its decimal part.
		var tmst = OS.get_system_time_msecs()
		var text = ""
		for v in digest_values + [tmst]:
			text += str(v)
		h.append("x-sw-act-tmst: " + str(tmst))
		h.append("x-sw-act-dig: " + text.md5_text())
	return h


func send(kind, method, path, body = null, digest_values = []):
	var post = method == HTTPClient.METHOD_POST
	var http = HTTPRequest.new()
	add_child(http)
	var text = "" if body == null else to_json(body)
	var err = http.request(url + path, headers(kind, post, digest_values), true, method, text)
	if err != OK:
		print("SW-TRANSPORT %s request() answered %d" % [path, err])
		yield(get_tree(), "idle_frame")
		return null
	var res = yield(http, "request_completed")
	http.queue_free()
	if res[0] != HTTPRequest.RESULT_SUCCESS:
		print("SW-TRANSPORT %s result %d" % [path, res[0]])
		return null
	return JSON.parse(res[3].get_string_from_utf8()).result


func uuid4():
	var b = []
	for i in range(16):
		b.append(randi() % 256)
	b[6] = (b[6] & 0x0f) | 0x40
	b[8] = (b[8] & 0x3f) | 0x80
	var hex = ""
	for i in range(16):
		hex += "%02x" % b[i]
		if i in [3, 5, 7, 9]:
			hex += "-"
	return hex


# 0.6.x games read the long keys of a score.
func long_keys(score):
	var out = {"score_id": score.score_id, "score": score.score, "player_name": score.player_name}
	if score.has("metadata"):
		out["metadata"] = score.metadata
	return out


func long_keys_all(scores):
	var out = []
	for score in scores:
		out.append(long_keys(score))
	return out


# --- scores ---

func step_bad_key():
	var kept = api_key
	api_key = ""
	for i in range(40):
		api_key += "0"
	var json = yield(send("scores", HTTPClient.METHOD_GET,
		"/get_top_scores/%s?version=%s&max=10&ldboard_name=main&period_offset=0" % [game_id, GAME_VERSION]), "completed")
	api_key = kept
	# 0.6.x logs this answer and stops.
	report("bad_key", {"forbidden": json.has("message") and json.message == "Forbidden"})


func save_score(player_name, score, metadata = {}):
	var score_id = uuid4()
	var body = {"score_id": score_id, "player_name": player_name, "game_id": game_id,
		"game_version": GAME_VERSION, "score": score, "ldboard_name": "main"}
	if not metadata.empty():
		body["metadata"] = metadata
	var json = yield(send("scores", HTTPClient.METHOD_POST, "/post_new_score", body, [player_name, score]),
		"completed")
	# 0.6.x reads the id when there is one.
	return {"score_id": json.score_id if json.has("score_id") else null, "sent_id": score_id}


func step_save_scores():
	var saved_special = yield(save_score(special, 120, {"level": 3, "mode": "hard"}), "completed")
	var saved_bo = yield(save_score(bo, 12.5), "completed")
	# A whole float: Godot 3 writes it as 80 in the body and the digest.
	var saved_cy = yield(save_score(cy, 80.0), "completed")
	saved["special"] = saved_special.score_id
	saved["bo"] = saved_bo.score_id
	saved["cy"] = saved_cy.score_id
	report("save_scores", {"special": saved_special, "bo": saved_bo, "cy": saved_cy})


func top_scores(maximum):
	var json = yield(send("scores", HTTPClient.METHOD_GET, "/get_top_scores/%s?version=%s&max=%d&ldboard_name=main&period_offset=0"
		% [game_id, GAME_VERSION, maximum]), "completed")
	return {"scores": long_keys_all(json.top_scores), "ld_name": json.ld_name,
		"insert_opt": json.ld_config.insert_opt, "has_period_offset": json.has("period_offset")}


func step_top_scores():
	var max10 = yield(top_scores(10), "completed")
	var max0 = yield(top_scores(0), "completed")
	report("top_scores", {"max10": max10, "max0": max0})


func by_player_query(player_name):
	return "?version=%s&max=10&ldboard_name=%s&player_name=%s&period_offset=0" % [GAME_VERSION,
		"main".percent_encode(), player_name.percent_encode()]


func step_by_player():
	var json = yield(send("scores", HTTPClient.METHOD_GET, "/get_scores_by_player/%s%s" % [game_id,
		by_player_query(special)]), "completed")
	report("by_player", {"player_name": json.player_name, "ld_name": json.ld_name,
		"insert_opt": json.ld_config.insert_opt, "scores": long_keys_all(json.top_scores)})


func top_by_player(player_name):
	var json = yield(send("scores", HTTPClient.METHOD_GET, "/get_top_score_by_player/%s%s" % [game_id,
		by_player_query(player_name)]), "completed")
	var top = json.top_score
	return {"player_name": json.player_name, "ld_name": json.ld_name, "insert_opt": json.ld_config.insert_opt,
		"top_score": {} if top.empty() else long_keys(top)}


func step_top_by_player():
	var found = yield(top_by_player(special), "completed")
	var nobody = yield(top_by_player("Nobody" + run), "completed")
	report("top_by_player", {"special": found, "nobody": nobody})


func position(key, value):
	var body = {"game_id": game_id, "game_version": GAME_VERSION, "ldboard_name": "main"}
	body[key] = value
	var json = yield(send("scores", HTTPClient.METHOD_POST, "/get_score_position", body), "completed")
	return {"position": int(json.position)}


func step_position():
	var by_id = yield(position("score_id", saved.get("cy", "")), "completed")
	var by_value = yield(position("score_value", 100), "completed")
	report("position", {"by_id": by_id, "by_value": by_value})


func around(score_id, score_value):
	# Godot 3's str(null) is the word Null.
	var path = "/get_scores_around/%s?version=%s&scores_to_fetch=1&ldboard_name=main&score_id=%s&score_value=%s" % [
		game_id, GAME_VERSION, str(score_id), str(score_value)]
	var json = yield(send("scores", HTTPClient.METHOD_GET, path), "completed")
	var out = {"above": long_keys_all(json.scores_above), "below": long_keys_all(json.scores_below),
		"ld_name": json.ld_name, "ld_config": json.ld_config}
	if json.has("score_position"):
		out["position"] = json.score_position
	return out


func step_around():
	var by_id = yield(around(saved.get("cy", ""), null), "completed")
	var by_value = yield(around(null, 100), "completed")
	report("around", {"by_id": by_id, "by_value": by_value})


# 0.6.x reads nothing of these answers; the test wants to see them, so they are read with get().
func delete_score(score_id):
	var json = yield(send("scores", HTTPClient.METHOD_GET, "/delete_score?game_id=%s&game_version=%s&score_id=%s"
		% [game_id, GAME_VERSION, score_id]), "completed")
	return {"success": json.get("success"), "error": json.get("error")}


func wipe():
	var json = yield(send("scores", HTTPClient.METHOD_POST, "/wipe_leaderboard", {"game_id": game_id,
		"game_version": GAME_VERSION, "ldboard_name": "main"}), "completed")
	return {"success": json.get("success"), "error": json.get("error")}


func step_deletes_refused():
	var deleted = yield(delete_score(saved.get("bo", "")), "completed")
	var wiped = yield(wipe(), "completed")
	report("deletes_refused", {"delete": deleted, "wipe": wiped})


# --- players ---

func step_register():
	var json = yield(send("auth", HTTPClient.METHOD_POST, "/create_new_player", {"game_id": game_id,
		"player_name": account, "password": account_password, "confirm_password": account_password}), "completed")
	report("register", {"success": json.success, "email_conf_enabled": json.email_conf_enabled})


func step_login():
	# 0.6.x sends the password as typed and remember_me as Godot 3 writes a bool.
	var body = {"game_id": game_id, "username": account, "password": account_password,
		"remember_me": str(true), "remember_me_expires_in": str(30)}
	var json = yield(send("auth", HTTPClient.METHOD_POST, "/login_player", body), "completed")
	if json.has("lookup"):
		var file = File.new()
		file.open("user://swsession.save", File.WRITE)
		file.store_string(to_json({"lookup": json.lookup, "validator": json.validator}))
		file.close()
	var token = null
	if json.success:
		token = json.swtoken
	report("login", {"success": json.success, "saved_session": json.has("lookup"),
		"token_lengths": [str(token).length()]})


func validate_saved():
	var file = File.new()
	var text = ""
	if file.open("user://swsession.save", File.READ) == OK:
		text = file.get_as_text()
		file.close()
	var session = JSON.parse(text).result
	if not session is Dictionary:
		yield(get_tree(), "idle_frame")
		return {"saved": false}
	var json = yield(send("session", HTTPClient.METHOD_POST, "/validate_remember_me", {"game_id": game_id,
		"lookup": session.lookup, "validator": session.validator}), "completed")
	var out = {"success": json.success}
	if json.success:
		out["player_name"] = json.player_name
	return out


func step_validate():
	var first = yield(validate_saved(), "completed")
	var second = yield(validate_saved(), "completed")
	report("validate", {"first": first, "second": second})


func step_reset():
	var json = yield(send("auth", HTTPClient.METHOD_POST, "/request_player_password_reset", {"game_id": game_id,
		"player_name": account}), "completed")
	report("reset", {"success": json.success, "error": json.error})


# --- player data ---

func push_data(data, overwrite):
	var json = yield(send("players", HTTPClient.METHOD_POST, "/push_player_data", {"game_id": game_id,
		"game_version": GAME_VERSION, "player_name": special, "player_data": data, "overwrite": overwrite}),
		"completed")
	return {"player_name": json.player_name}


func get_data():
	# The name goes into the path as it is: spaces, & and ü raw in the request line.
	var json = yield(send("players", HTTPClient.METHOD_GET, "/get_player_data/%s/%s" % [game_id, special]),
		"completed")
	return {"player_name": json.player_name, "player_data": json.player_data}


func remove_data(data):
	var json = yield(send("players", HTTPClient.METHOD_POST, "/remove_player_data", {"game_id": game_id,
		"player_name": special, "player_data": data}), "completed")
	return {"player_name": json.player_name, "player_data": json.player_data}


func step_player_data():
	var out = {}
	out["replace"] = yield(push_data({"Weapons": ["Sword", "Bow"], "Money": 120, "Level": 3}, true), "completed")
	out["merge"] = yield(push_data({"Money": 50, "Pet": "Owl"}, false), "completed")
	out["got"] = yield(get_data(), "completed")
	out["remove_key"] = yield(remove_data({"Pet": ""}), "completed")
	# 0.6.x asks for everything to go with an empty string.
	out["remove_all"] = yield(remove_data(""), "completed")
	out["got_after"] = yield(get_data(), "completed")
	# What stays stored, for the test to read through /v1.
	out["last"] = yield(push_data({"Checkpoint": "Forest", "Money": 7}, true), "completed")
	report("player_data", out)


# --- the next start (client deletes on) ---

func step_resume_session():
	var resumed = yield(validate_saved(), "completed")
	report("resume_session", resumed)


func step_delete_and_wipe():
	var out = {}
	out["delete"] = yield(delete_score(OS.get_environment("SW_DELETE_ID")), "completed")
	out["after_delete"] = (yield(top_scores(0), "completed")).scores
	out["wipe"] = yield(wipe(), "completed")
	out["after_wipe"] = (yield(top_scores(0), "completed")).scores
	report("delete_and_wipe", out)
