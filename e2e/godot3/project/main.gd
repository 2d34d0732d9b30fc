extends Node
# Runs the phase named by HOWL_PHASE, prints one line per check and the summary, then quits.
# Other files add checks: scene_checks.gd (the built-in scenes) and the samples harness each have
# a `run(t)` coroutine that is called when the file exists.

const TestHelper = preload("res://test_helper.gd")
const Scenario = preload("res://scenario.gd")
const SCENE_CHECKS = "res://scene_checks.gd"
const SAMPLES = "res://samples_harness.gd"
const SESSION_FILE = "user://howl_session.cfg"
# A scenario that has not finished by then is reported, so the runner sees why.
const WATCHDOG_SECONDS = 120.0

var _t: Node


func _ready() -> void:
	_t = TestHelper.new()
	_t.name = "T"
	add_child(_t)
	get_tree().create_timer(WATCHDOG_SECONDS).connect("timeout", self, "_on_watchdog")
	_run()


func _run() -> void:
	var t := _t
	var phase: String = t.env("HOWL_PHASE", "main")
	var scenario: Node = Scenario.new()
	scenario.name = "Scenario"
	add_child(scenario)
	# One frame first, so the autoload and this scene are both ready.
	yield(get_tree(), "idle_frame")
	match phase:
		"main":
			yield(scenario.run_main(t), "completed")
			# The checks other files add log players in and out: the saved session the next
			# phases resume is put back afterwards.
			var saved_session := _read(SESSION_FILE)
			# As a restart would: their logouts must not end the session that was saved.
			Howl.Players.forget_session_in_memory()
			for extra in [SCENE_CHECKS, SAMPLES]:
				if ResourceLoader.exists(extra):
					t.configure_a()
					yield(_run_extra(extra, t), "completed")
			var file := File.new()
			if file.open(SESSION_FILE, File.WRITE) == OK:
				file.store_string(saved_session)
				file.close()
		"offline":
			yield(scenario.run_offline(t), "completed")
		"resume":
			yield(scenario.run_resume(t), "completed")
		_:
			t.fail_check("phase", "unknown HOWL_PHASE %s" % phase)
			yield(get_tree(), "idle_frame")
	t.finish()
	get_tree().quit(0 if t.failed == 0 else 1)


func _run_extra(path: String, t: Node):
	var script = load(path)
	if not script is GDScript or not script.can_instance():
		t.fail_check(path.get_file().get_basename(), "%s does not load" % path)
		yield(get_tree(), "idle_frame")
		return
	var extra: Object = script.new()
	if extra is Node:
		add_child(extra)
	var state = extra.run(t)
	if state is GDScriptFunctionState:
		yield(state, "completed")
	else:
		yield(get_tree(), "idle_frame")
	if extra is Node:
		extra.queue_free()


static func _read(path: String) -> String:
	var file := File.new()
	if file.open(path, File.READ) != OK:
		return ""
	var text := file.get_as_text()
	file.close()
	return text


func _on_watchdog() -> void:
	if _t.is_finished():
		return
	_t.fail_check("watchdog", "the scenario did not finish within %d s" % int(WATCHDOG_SECONDS))
	_t.finish()
	get_tree().quit(1)
