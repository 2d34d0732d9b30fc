tool
extends EditorPlugin

const AUTOLOAD_NAME = "Howl"
const AUTOLOAD_PATH = "res://addons/howl/Howl.gd"


func enable_plugin() -> void:
	add_autoload_singleton(AUTOLOAD_NAME, AUTOLOAD_PATH)


func disable_plugin() -> void:
	remove_autoload_singleton(AUTOLOAD_NAME)
