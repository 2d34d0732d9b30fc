@tool
extends EditorPlugin
## Stands in for the Howl checkbox under Project → Project Settings → Plugins (e2e/new-developer.test.ts):
## switches the plugin as HOWL_PLUGIN_ENABLED says, waits until the editor has saved project.godot,
## prints the outcome and quits the editor.


func _enter_tree() -> void:
	_switch.call_deferred()


func _switch() -> void:
	# The editor finishes opening the project over a few frames.
	for i in 30:
		await get_tree().process_frame
	var enable := OS.get_environment("HOWL_PLUGIN_ENABLED") == "true"
	EditorInterface.set_plugin_enabled("howl", enable)
	# The editor saves project settings a moment after a change, as after a click.
	var deadline := Time.get_ticks_msec() + 15000
	while Time.get_ticks_msec() < deadline and _autoload_saved() != enable:
		await get_tree().create_timer(0.2).timeout
	print("HOWL-EDITOR howl enabled=%s" % EditorInterface.is_plugin_enabled("howl"))
	get_tree().quit()


func _autoload_saved() -> bool:
	return FileAccess.get_file_as_string("res://project.godot").contains("\nHowl=")
