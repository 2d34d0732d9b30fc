extends Node
## The scenario of e2e/engines.md for Godot 4, one step file per part under scenario/.

const TestHelper := preload("res://test_helper.gd")
const MAIN_STEPS := [
	preload("res://scenario/transport.gd"),
	preload("res://scenario/before_sending.gd"),
	preload("res://scenario/scores.gd"),
	preload("res://scenario/players.gd"),
	preload("res://scenario/player_data.gd"),
]
const Offline := preload("res://scenario/offline.gd")
const Resume := preload("res://scenario/resume.gd")


func run_main(t: TestHelper) -> void:
	# Each step configures the game it needs; the first, transport, starts before any configure.
	for step in MAIN_STEPS:
		await step.new().run(t)


func run_offline(t: TestHelper) -> void:
	await Offline.new().run(t)


func run_resume(t: TestHelper) -> void:
	await Resume.new().run(t)
