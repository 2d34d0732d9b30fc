extends Node
## Runs the phase named by HOWL_PHASE, prints one line per check and the summary, then quits.
## Other files add checks: scene_checks.gd (the built-in scenes) and the samples harness each have
## a `run(t)` coroutine that is called when the file exists.

const TestHelper := preload("res://test_helper.gd")
const Scenario := preload("res://scenario.gd")
const SCENE_CHECKS := "res://scene_checks.gd"
const SAMPLES := "res://samples_harness.gd"
const SESSION_FILE := "user://howl_session.cfg"
## A scenario that has not finished by then is reported, so the runner sees why.
const WATCHDOG_SECONDS := 120.0


func _ready() -> void:
	var t: TestHelper = TestHelper.new()
	t.name = "T"
	add_child(t)
	get_tree().create_timer(WATCHDOG_SECONDS).timeout.connect(_on_watchdog.bind(t))
	var phase := t.env("HOWL_PHASE", "main")
	var scenario: Scenario = Scenario.new()
	scenario.name = "Scenario"
	add_child(scenario)
	# One frame first, so the autoload and this scene are both ready.
	await get_tree().process_frame
	match phase:
		"main":
			await scenario.run_main(t)
			# The checks other files add log players in and out: the saved session the next
			# phases resume is put back afterwards.
			var saved_session := FileAccess.get_file_as_string(SESSION_FILE)
			# As a restart would: their logouts must not end the session that was saved.
			Howl.Players.forget_session_in_memory()
			for extra in [SCENE_CHECKS, SAMPLES]:
				if ResourceLoader.exists(extra):
					t.configure_a()
					await _run_extra(extra, t)
			var file := FileAccess.open(SESSION_FILE, FileAccess.WRITE)
			if file != null:
				file.store_string(saved_session)
				file.close()
		"offline":
			await scenario.run_offline(t)
		"resume":
			await scenario.run_resume(t)
		_:
			t.fail_check("phase", "unknown HOWL_PHASE %s" % phase)
	t.finish()
	get_tree().quit(0 if t.failed == 0 else 1)


func _run_extra(path: String, t: TestHelper) -> void:
	var script: Variant = load(path)
	if not script is GDScript or not script.can_instantiate():
		t.fail_check(path.get_file().get_basename(), "%s does not load" % path)
		return
	var extra: Object = script.new()
	if extra is Node:
		add_child(extra)
	await extra.run(t)
	if extra is Node:
		extra.queue_free()


func _on_watchdog(t: TestHelper) -> void:
	if t.is_finished():
		return
	t.fail_check("watchdog", "the scenario did not finish within %d s" % WATCHDOG_SECONDS)
	t.finish()
	get_tree().quit(1)
