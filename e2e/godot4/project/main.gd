extends Node
## Runs the phase named by HOWL_PHASE, prints one line per check and the summary, then quits.
## Other files add checks: scene_checks.gd (the built-in scenes) and the samples harness each have
## a `run(t)` coroutine that is called when the file exists.

const TestHelper := preload("res://test_helper.gd")
const Scenario := preload("res://scenario.gd")
const SCENE_CHECKS := "res://scene_checks.gd"
const SAMPLES := "res://samples_harness.gd"
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
	match phase:
		"main":
			await scenario.run_main(t)
			for extra in [SCENE_CHECKS, SAMPLES]:
				if ResourceLoader.exists(extra):
					await _run_extra(extra, t)
		"offline":
			await scenario.run_offline(t)
		"resume":
			await scenario.run_resume(t)
		_:
			t.fail_check("phase", "unknown HOWL_PHASE %s" % phase)
	t.finish()
	get_tree().quit(0 if t.failed == 0 else 1)


func _run_extra(path: String, t: TestHelper) -> void:
	var script: Script = load(path)
	var extra: Object = script.new()
	if extra is Node:
		add_child(extra)
	await extra.run(t)
	if extra is Node:
		extra.queue_free()


func _on_watchdog(t: TestHelper) -> void:
	t.fail_check("watchdog", "the scenario did not finish within %d s" % WATCHDOG_SECONDS)
	t.finish()
	get_tree().quit(1)
