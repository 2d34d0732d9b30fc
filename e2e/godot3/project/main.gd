extends Node
# Runs the phase named by HOWL_PHASE, prints one line per check and a summary, then quits.

const Test = preload("res://test.gd")
# No phase takes this long; past it the run reports what is missing instead of hanging.
const WATCHDOG_SECONDS = 180.0

var _t


func _ready() -> void:
	_t = Test.new(self)
	get_tree().create_timer(WATCHDOG_SECONDS).connect("timeout", self, "_on_watchdog")
	_run()


func _run() -> void:
	# One frame first, so the autoload and this scene are both ready.
	yield(get_tree(), "idle_frame")
	var phase := OS.get_environment("HOWL_PHASE")
	if phase == "":
		phase = "main"
	var steps := []
	match phase:
		"main":
			steps = [
				"res://scenario/transport.gd",
				"res://scenario/before_sending.gd",
				"res://scenario/scores.gd",
				"res://scenario/players.gd",
				"res://scenario/player_data.gd",
				"res://scene_checks.gd",
				"res://samples_check.gd",
			]
		"offline":
			steps = ["res://scenario/offline.gd"]
		"resume":
			steps = ["res://scenario/resume.gd"]
		_:
			_t.fail_check("phase", "unknown HOWL_PHASE %s" % phase)
	for path in steps:
		# Scene and sample checks exist only where their scripts do.
		if not ResourceLoader.exists(path):
			continue
		var script = load(path)
		if not script is GDScript or not script.can_instance():
			_t.fail_check(path.get_file().get_basename(), "%s does not load" % path)
			continue
		var step = script.new()
		_t.configure_a()
		var state = step.run(_t)
		if state is GDScriptFunctionState:
			yield(state, "completed")
	_finish()


func _on_watchdog() -> void:
	_t.fail_check("watchdog", "the phase did not finish within %d s" % int(WATCHDOG_SECONDS))
	_finish()


func _finish() -> void:
	if _t.finished:
		return
	_t.done()
	get_tree().quit(0 if _t.failed == 0 else 1)
