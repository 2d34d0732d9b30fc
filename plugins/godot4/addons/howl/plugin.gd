@tool
extends EditorPlugin
## Enabling the plugin adds the `Howl` autoload; disabling it removes it again.

const AUTOLOAD_NAME := "Howl"
const AUTOLOAD_PATH := "res://addons/howl/Howl.gd"


func _enable_plugin() -> void:
	add_autoload_singleton(AUTOLOAD_NAME, AUTOLOAD_PATH)


func _disable_plugin() -> void:
	remove_autoload_singleton(AUTOLOAD_NAME)
