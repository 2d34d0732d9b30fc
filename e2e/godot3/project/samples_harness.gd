extends Node
# Runs every GDScript sample of the site (the runner copies them to res://samples/) against the
# live server, so what a page shows is what runs. Each sample becomes a script that extends
# sample_context.gd: a file with top-level `func`s keeps them as members (`_ready` renamed
# `sample_ready`, which the harness calls), a fragment of statements is wrapped in
# `func sample_main()`. samples_manifest.json says what to call and what to prepare; a sample
# passes when it compiles, runs, and no Howl call it made completed with an error it did not expect.

const MANIFEST = "res://samples_manifest.json"
const SAMPLES_DIR = "res://samples/"
const PASSWORD = "Howl-Player-1!"
# A call the sample left running (fire and forget) must be done by then.
const QUIET_SECONDS = 20.0

var t: Node
var _heard := []
# True while the harness itself calls Howl, so its own calls are not counted as the sample's.
var _preparing := false
var _serial := 0
var _score_id := ""


func run(helper: Node):
	t = helper
	var names := _sample_names()
	if names.empty():
		yield(get_tree(), "idle_frame")
		return
	var manifest := _manifest()
	var problems := []
	for listed in manifest:
		if not listed in names:
			problems.append("%s: listed in samples_manifest.json, but there is no such sample" % listed)
	_configure()
	var seed_score = yield(Howl.Scores.save_score(_fresh("seed"), 1000), "completed")
	_score_id = str(seed_score.get("score_id"))
	_listen()
	for sample_name in names:
		var why: String = yield(_run_sample(sample_name, manifest.get(sample_name, {})), "completed")
		if why != "":
			problems.append("%s: %s" % [sample_name, why])
	_configure()
	if problems.empty():
		t.pass_check("samples")
	for problem in problems:
		t.fail_check("samples", problem)


func _run_sample(sample_name: String, entry: Dictionary):
	yield(get_tree(), "idle_frame")
	for path in entry.get("requires", []):
		if not ResourceLoader.exists(path):
			return "needs %s, which the plugin does not have" % path
	var script := GDScript.new()
	script.source_code = _source(_read(SAMPLES_DIR + sample_name + ".gd"))
	if script.reload() != OK:
		return "does not compile"
	_configure()
	var context: Node = script.new()
	context.name = "Sample_" + sample_name
	context.score_id = _score_id
	add_child(context)
	var prepared: String = yield(_prepare(context, str(entry.get("player", ""))), "completed")
	if prepared != "":
		context.queue_free()
		return prepared
	var calls: Array = entry.get("calls", [])
	if calls.empty():
		if context.has_method("sample_main"):
			calls = [["sample_main"]]
		elif context.has_method("sample_ready"):
			calls = [["sample_ready"]]
		else:
			context.queue_free()
			return "has functions but samples_manifest.json says none to call"
	_heard.clear()
	for step in calls:
		var function: String = step[0]
		var args: Array = step.slice(1, step.size() - 1) if step.size() > 1 else []
		if function == "@login":
			_preparing = true
			var logged = yield(Howl.Players.login_player(context.player_name, PASSWORD), "completed")
			_preparing = false
			if logged.error != null:
				context.queue_free()
				return "could not log the player in: " + t.said(logged)
		elif function == "@mail_code":
			var code = yield(t.mail_code(_email(context.player_name), int(args[0]) if args.size() > 0 else 1), "completed")
			context.get_node("Code").text = code
		elif not context.has_method(function):
			context.queue_free()
			return "has no function %s" % function
		else:
			var state = context.callv(function, args)
			if state is GDScriptFunctionState:
				yield(state, "completed")
	yield(_quiet(), "completed")
	var why := _judge(entry, context)
	context.queue_free()
	_configure()
	if Howl.Players.is_logged_in():
		_preparing = true
		yield(Howl.Players.logout_player(), "completed")
		_preparing = false
	return why


func _judge(entry: Dictionary, context: Node) -> String:
	var expected: Array = entry.get("expect_errors", [])
	var problems := []
	for heard in _heard:
		var result: Dictionary = heard[1]
		if typeof(result.get("error")) == TYPE_DICTIONARY and not result.error.get("code") in expected:
			problems.append("%s completed with %s" % [heard[0], t.said(result)])
	if _heard.empty() and entry.get("calls_howl", true):
		problems.append("made no Howl call")
	for thing in entry.get("expect_did", []):
		if not thing in context.did:
			problems.append("did not %s (did %s)" % [thing, str(context.did)])
	for thing in context.did:
		if thing.begins_with("missing scene"):
			problems.append(thing)
	return PoolStringArray(problems).join("; ")


# The sample as a script on top of the context, with the guide's placeholders filled in.
func _source(text: String) -> String:
	text = text.replace("YOUR_API_KEY", t.env("HOWL_API_KEY")).replace("YOUR_GAME_ID", t.env("HOWL_GAME_ID"))
	text = text.replace("\"http://localhost:8080\"", "\"%s\"" % t.env("HOWL_URL"))
	# The test's own scene must stay: a change of scene is checked, not made.
	text = text.replace("get_tree().change_scene(", "change_scene(")
	var functions := RegEx.new()
	functions.compile("(?m)^func ")
	var body := ""
	if functions.search(text) != null:
		body = text.replace("func _ready(", "func sample_ready(")
	else:
		body = "func sample_main():\n"
		for line in text.split("\n"):
			body += ("\t" + line if line.strip_edges() != "" else "") + "\n"
		# A fragment that never waits must still be a coroutine the harness can wait for.
		body += "\tyield(get_tree(), \"idle_frame\")\n"
	return "extends \"res://sample_context.gd\"\n\n" + body


# Fills the context's player and form fields: a name nobody registered (the default), a fresh
# registered and confirmed player, a new name for a registration form, or a player still to confirm.
func _prepare(context: Node, kind: String):
	yield(get_tree(), "idle_frame")
	var player := _fresh(kind if kind != "" else "player")
	context.player_name = player
	context.password = PASSWORD
	context.get_node("Name").text = player
	context.get_node("Email").text = _email(player)
	context.get_node("Password").text = PASSWORD
	context.get_node("ConfirmPassword").text = PASSWORD
	if kind == "registered" or kind == "unconfirmed":
		_preparing = true
		var registered = yield(Howl.Players.register_player(player, _email(player), PASSWORD, PASSWORD), "completed")
		var code: String = yield(t.mail_code(_email(player)), "completed")
		context.get_node("Code").text = code
		var confirmed = {"error": null}
		if kind == "registered":
			confirmed = yield(Howl.Players.confirm_email(player, code), "completed")
		_preparing = false
		if registered.error != null or confirmed.error != null:
			return "could not prepare a player: %s / %s" % [t.said(registered), t.said(confirmed)]
	return ""


func _configure() -> void:
	Howl.configure({
		"api_key": t.env("HOWL_API_KEY"),
		"game_id": t.env("HOWL_GAME_ID"),
		"base_url": t.env("HOWL_URL"),
		"log_level": 1,
		"timeout_seconds": 5,
	})


# Hears every call's signal, to see each call a sample made and how it ended.
func _listen() -> void:
	for source in [Howl, Howl.Scores, Howl.Players, Howl.PlayerData]:
		for sig in source.get_signal_list():
			if sig.args.size() == 1 and sig.args[0].name == "result" and not source.is_connected(sig.name, self, "_on_heard"):
				source.connect(sig.name, self, "_on_heard", [sig.name])


func _on_heard(result, signal_name: String) -> void:
	if not _preparing:
		_heard.append([signal_name, result])


# Waits until no call is in flight: a sample may fire a call and move on.
func _quiet():
	var deadline := OS.get_ticks_msec() + int(QUIET_SECONDS * 1000)
	while true:
		yield(get_tree(), "idle_frame")
		if OS.get_ticks_msec() >= deadline or not _busy(Howl):
			return


static func _busy(node: Node) -> bool:
	for child in node.get_children():
		if child is HTTPRequest or _busy(child):
			return true
	return false


func _sample_names() -> Array:
	var names := []
	var dir := Directory.new()
	if dir.open(SAMPLES_DIR) != OK:
		return names
	dir.list_dir_begin(true, true)
	var file := dir.get_next()
	while file != "":
		if file.ends_with(".gd"):
			names.append(file.get_basename())
		file = dir.get_next()
	dir.list_dir_end()
	names.sort()
	return names


func _manifest() -> Dictionary:
	var text := _read(MANIFEST)
	var data = JSON.parse(text).result if validate_json(text) == "" else null
	if typeof(data) != TYPE_DICTIONARY:
		t.fail_check("samples", "samples_manifest.json is not a JSON object")
		return {}
	return data


static func _read(path: String) -> String:
	var file := File.new()
	if file.open(path, File.READ) != OK:
		return ""
	var text := file.get_as_text()
	file.close()
	return text


func _fresh(kind: String) -> String:
	_serial += 1
	return "sample-%s-%d-%s" % [kind, _serial, t.env("HOWL_RUN", "local")]


static func _email(player: String) -> String:
	return "%s@example.com" % player
