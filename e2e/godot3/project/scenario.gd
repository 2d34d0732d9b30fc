extends Node
# The scenario of e2e/engines.md for Godot 3, one step file per part under scenario/.

const MAIN_STEPS = [
	preload("res://scenario/transport.gd"),
	preload("res://scenario/before_sending.gd"),
	preload("res://scenario/scores.gd"),
	preload("res://scenario/players.gd"),
	preload("res://scenario/player_data.gd"),
]
const Offline = preload("res://scenario/offline.gd")
const Resume = preload("res://scenario/resume.gd")


func run_main(t):
	yield(get_tree(), "idle_frame")
	for step in MAIN_STEPS:
		t.configure_a()
		yield(step.new().run(t), "completed")


func run_offline(t):
	yield(Offline.new().run(t), "completed")


func run_resume(t):
	yield(Resume.new().run(t), "completed")
