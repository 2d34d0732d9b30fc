extends Node
# A client written for Howl's tests from docs of the SilentWolf wire protocol (no plugin code): it sends
# what SilentWolf plugin 0.9.7 sends on Godot 4 (its four headers, tokens after login, JSON.stringify
# bodies, the digest with the millisecond fraction, names raw in the get_player_data path) and reads
# each answer field as the plugin does, unconditionally, so a missing field is a script error in the log.
# Prints one `SW-RESULT {json}` line per step (what it read), `SW-MISSING <step>` for a step that did not
# finish, then `SW-DONE`. Environment: SW_URL, SW_API_KEY, SW_GAME_ID, SW_RUN, SW_PHASE, SW_DELETE_ID.

const PLUGIN_VERSION := "0.9.7"
const STEP_TIMEOUT := 10.0

var url := OS.get_environment("SW_URL")
var api_key := OS.get_environment("SW_API_KEY")
var game_id := OS.get_environment("SW_GAME_ID")
var run := OS.get_environment("SW_RUN")
# Set by a successful login (0.9.x keeps them in memory and sends them on every later call).
var sw_token = null
var sw_id_token = null
var saved := {}
var _done := {}

# The players of the scenario; `special` goes raw into a request line.
var special := "HW Fox&Co ü " + run
var bo := "Bo" + run
var cy := "Cy" + run
var account := "swp" + run
var account_password := "Howl.Pass.9x"


func _ready() -> void:
	var phase := OS.get_environment("SW_PHASE")
	var steps: Array = []
	if phase == "main":
		steps = ["bad_key", "save_scores", "top_scores", "by_player", "top_by_player", "position",
			"around", "deletes_refused", "register", "login", "validate", "reset", "player_data"]
	elif phase == "resume":
		steps = ["resume_session", "delete_and_wipe"]
	for step in steps:
		await _step(step)
	print("SW-DONE")
	get_tree().quit(0)


func _step(step: String) -> void:
	_done[step] = false
	_run_one(step)
	var waited := 0.0
	while not _done[step] and waited < STEP_TIMEOUT:
		await get_tree().create_timer(0.05).timeout
		waited += 0.05
	if not _done[step]:
		print("SW-MISSING " + step)


func _run_one(step: String) -> void:
	await call("step_" + step)
	_done[step] = true


func report(step: String, values: Dictionary) -> void:
	values["step"] = step
	print("SW-RESULT " + JSON.stringify(values))


# --- transport, as the plugin's two shared senders do it ---

func headers(post: bool, path: String, digest_values: Array) -> PackedStringArray:
	var h := PackedStringArray()
	if post:
		h.append("Content-Type: application/json")
	h.append("x-api-key: " + api_key)
	h.append("x-sw-game-id: " + game_id)
	h.append("x-sw-plugin-version: " + PLUGIN_VERSION)
	h.append("x-sw-godot-version: " + str(Engine.get_version_info().string))
	if sw_id_token != null:
		h.append("x-sw-id-token: " + sw_id_token)
	if sw_token != null:
		h.append("x-sw-access-token: " + sw_token)
	if post and ("save_score" in path or "push_player_data" in path):
		# Only the millisecond fraction of the current second, as 0.9.x sends it.
		var tmst := int(fmod(Time.get_unix_time_from_system(), 1.0) * 1000.0)
		var text := ""
		for v in digest_values + [tmst]:
			text += str(v)
		h.append("x-sw-act-tmst: " + str(tmst))
		h.append("x-sw-act-dig: " + text.md5_text())
	return h


func send(method: int, path: String, body = null, digest_values: Array = []):
	var post := method == HTTPClient.METHOD_POST
	var http := HTTPRequest.new()
	add_child(http)
	var text := "" if body == null else JSON.stringify(body)
	var err := http.request(url + path, headers(post, path, digest_values), method, text)
	if err != OK:
		print("SW-TRANSPORT %s request() answered %d" % [path, err])
		return null
	var res: Array = await http.request_completed
	http.queue_free()
	if res[0] != HTTPRequest.RESULT_SUCCESS:
		print("SW-TRANSPORT %s result %d" % [path, res[0]])
		return null
	return JSON.parse_string(res[3].get_string_from_utf8())


func get_json(path: String):
	return await send(HTTPClient.METHOD_GET, path)


func post_json(path: String, body: Dictionary, digest_values: Array = []):
	return await send(HTTPClient.METHOD_POST, path, body, digest_values)


func uuid4() -> String:
	var b := []
	for i in 16:
		b.append(randi() % 256)
	b[6] = (b[6] & 0x0f) | 0x40
	b[8] = (b[8] & 0x3f) | 0x80
	var hex := ""
	for i in 16:
		hex += "%02x" % b[i]
		if i in [3, 5, 7, 9]:
			hex += "-"
	return hex


# 0.9.7 turns each short-keyed score into the long names; sid, s and pn must be there.
func translate(score: Dictionary) -> Dictionary:
	var out := {"score_id": score.sid, "score": score.s, "player_name": score.pn}
	if score.has("md"):
		out["metadata"] = score.md
	if score.has("position"):
		out["position"] = score.position
	return out


func translate_all(scores: Array) -> Array:
	var out := []
	for score in scores:
		out.append(translate(score))
	return out


# --- scores ---

func step_bad_key() -> void:
	var kept := api_key
	api_key = "0".repeat(40)
	var json = await get_json("/get_scores/%s?max=10&ldboard_name=main&period_offset=0" % game_id)
	api_key = kept
	report("bad_key", {"success": json.success, "error": json.get("error")})


func save_score(player_name: String, score, metadata: Dictionary = {}) -> Dictionary:
	var score_id := uuid4()
	var body := {"score_id": score_id, "player_name": player_name, "game_id": game_id, "score": score,
		"ldboard_name": "main"}
	if not metadata.is_empty():
		body["metadata"] = metadata
	var json = await post_json("/save_score", body, [player_name, score])
	return {"success": json.success, "score_id": json.score_id, "sent_id": score_id}


func step_save_scores() -> void:
	var saved_special := await save_score(special, 120, {"level": 3, "mode": "hard"})
	var saved_bo := await save_score(bo, 12.5)
	# A whole float: Godot 4 writes it as 80.0 in the digest.
	var saved_cy := await save_score(cy, 80.0)
	saved["special"] = saved_special.score_id
	saved["bo"] = saved_bo.score_id
	saved["cy"] = saved_cy.score_id
	report("save_scores", {"special": saved_special, "bo": saved_bo, "cy": saved_cy})


func top_scores(maximum: int) -> Dictionary:
	var json = await get_json("/get_scores/%s?max=%d&ldboard_name=main&period_offset=0" % [game_id, maximum])
	var ld_config: Dictionary = json.ld_config
	return {"success": json.success, "scores": translate_all(json.top_scores), "ld_name": json.ld_name,
		"insert_opt": ld_config.insert_opt, "has_period_offset": json.has("period_offset")}


func step_top_scores() -> void:
	report("top_scores", {"max10": await top_scores(10), "max0": await top_scores(0)})


func by_player_query(player_name: String) -> String:
	return "?max=10&ldboard_name=%s&player_name=%s&period_offset=0" % ["main".uri_encode(), player_name.uri_encode()]


func step_by_player() -> void:
	var json = await get_json("/get_scores_by_player/%s%s" % [game_id, by_player_query(special)])
	report("by_player", {"success": json.success, "player_name": json.player_name, "ld_name": json.ld_name,
		"insert_opt": json.ld_config.insert_opt, "scores": translate_all(json.top_scores)})


func top_by_player(player_name: String) -> Dictionary:
	var json = await get_json("/get_top_score_by_player/%s%s" % [game_id, by_player_query(player_name)])
	var top: Dictionary = json.top_score
	# 0.9.7 translated `{}` too and failed on it; 0.9.9 reads an empty top score as none, as here.
	return {"success": json.success, "player_name": json.player_name, "ld_name": json.ld_name,
		"insert_opt": json.ld_config.insert_opt, "top_score": {} if top.is_empty() else translate(top)}


func step_top_by_player() -> void:
	report("top_by_player", {"special": await top_by_player(special),
		"nobody": await top_by_player("Nobody" + run)})


func position(by: Dictionary) -> Dictionary:
	var body := {"game_id": game_id, "ldboard_name": "main"}
	body.merge(by)
	var json = await post_json("/get_score_position", body)
	return {"success": json.success, "position": int(json.position)}


func step_position() -> void:
	var by_id := await position({"score_id": saved.get("cy", "")})
	var by_value := await position({"score_value": 100})
	report("position", {"by_id": by_id, "by_value": by_value})


func around(score_id, score_value) -> Dictionary:
	# 0.9.7 writes the absent one as the word Null.
	var path := "/get_scores_around/%s?scores_to_fetch=1&ldboard_name=main&score_id=%s&score_value=%s" % [
		game_id, "Null" if score_id == null else score_id, "Null" if score_value == null else str(score_value)]
	var json = await get_json(path)
	var out := {"success": json.success, "above": translate_all(json.scores_above),
		"below": translate_all(json.scores_below)}
	if json.has("score_position"):
		out["position"] = json.score_position
	return out


func step_around() -> void:
	report("around", {"by_id": await around(saved.get("cy", ""), null), "by_value": await around(null, 100)})


func delete_score(score_id: String) -> Dictionary:
	var json = await get_json("/delete_score?game_id=%s&ldboard_name=main&score_id=%s" % [game_id, score_id])
	# 0.9.x reads a missing error as null.
	return {"success": json.success, "error": json.get("error")}


func wipe() -> Dictionary:
	var json = await post_json("/wipe_leaderboard", {"game_id": game_id, "ldboard_name": "main"})
	# 0.9.x reads a missing error as null.
	return {"success": json.success, "error": json.get("error")}


func step_deletes_refused() -> void:
	report("deletes_refused", {"delete": await delete_score(saved.get("bo", "")), "wipe": await wipe()})


# --- players ---

func step_register() -> void:
	var json = await post_json("/create_new_player", {"game_id": game_id, "player_name": account,
		"password": account_password, "confirm_password": account_password})
	report("register", {"success": json.success, "email_conf_enabled": json.email_conf_enabled})


func step_login() -> void:
	# 0.9.x replaces every dot of the password by * in the body it sends.
	var body := {"game_id": game_id, "username": account, "password": account_password.replace(".", "*"),
		"remember_me": str(true), "remember_me_expires_in": str(30)}
	var json = await post_json("/login_player", body)
	if json.has("lookup"):
		var file := FileAccess.open("user://swsession.save", FileAccess.WRITE)
		file.store_string(str({"lookup": json.lookup, "validator": json.validator}))
		file.close()
	var success: bool = json.success
	if success:
		sw_token = json.swtoken
		sw_id_token = json.swidtoken
	report("login", {"success": success, "saved_session": json.has("lookup"),
		"token_lengths": [str(sw_token).length(), str(sw_id_token).length()]})


func validate_saved() -> Dictionary:
	var text := FileAccess.get_file_as_string("user://swsession.save")
	var session = JSON.parse_string(text)
	if not session is Dictionary:
		return {"saved": false}
	var json = await post_json("/validate_remember_me", {"game_id": game_id, "lookup": session.lookup,
		"validator": session.validator})
	var out := {"success": json.success}
	if json.success:
		out["player_name"] = json.player_name
	return out


func step_validate() -> void:
	report("validate", {"first": await validate_saved(), "second": await validate_saved()})


func step_reset() -> void:
	var json = await post_json("/request_player_password_reset", {"game_id": game_id, "player_name": account})
	report("reset", {"success": json.success, "error": json.error})


# --- player data ---

func push_data(data: Dictionary, overwrite: bool) -> Dictionary:
	var json = await post_json("/push_player_data", {"game_id": game_id, "player_name": special,
		"player_data": data, "overwrite": overwrite}, [special, JSON.stringify(data)])
	return {"success": json.success, "player_name": json.player_name}


func get_data() -> Dictionary:
	# The name goes into the path as it is: spaces, & and ü raw in the request line.
	var json = await get_json("/get_player_data/%s/%s" % [game_id, special])
	return {"success": json.success, "player_name": json.player_name, "player_data": json.player_data}


func remove_data(data: Dictionary) -> Dictionary:
	var json = await post_json("/remove_player_data", {"game_id": game_id, "player_name": special,
		"player_data": data})
	return {"success": json.success, "player_name": json.player_name, "player_data": json.player_data}


func step_player_data() -> void:
	var out := {}
	out["replace"] = await push_data({"Weapons": ["Sword", "Bow"], "Money": 120, "Level": 3}, true)
	out["merge"] = await push_data({"Money": 50, "Pet": "Owl"}, false)
	out["got"] = await get_data()
	out["remove_key"] = await remove_data({"Pet": ""})
	out["remove_all"] = await remove_data({})
	out["got_after"] = await get_data()
	# What stays stored, for the test to read through /v1.
	out["last"] = await push_data({"Checkpoint": "Forest", "Money": 7}, true)
	report("player_data", out)


# --- the next start (client deletes on) ---

func step_resume_session() -> void:
	report("resume_session", await validate_saved())


func step_delete_and_wipe() -> void:
	var out := {}
	out["delete"] = await delete_score(OS.get_environment("SW_DELETE_ID"))
	out["after_delete"] = (await top_scores(0)).scores
	out["wipe"] = await wipe()
	out["after_wipe"] = (await top_scores(0)).scores
	report("delete_and_wipe", out)
