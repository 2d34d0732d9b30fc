tool
extends EditorPlugin
# Stands in for the Howl checkbox under Project → Project Settings → Plugins (e2e/new-developer.test.ts):
# switches the plugin as HOWL_PLUGIN_ENABLED says, waits until the editor has saved project.godot,
# prints the outcome and quits the editor.


func _enter_tree() -> void:
	call_deferred("_switch")


func _switch() -> void:
	# The editor finishes opening the project over a few frames.
	for i in range(30):
		yield(get_tree(), "idle_frame")
	var enable: bool = OS.get_environment("HOWL_PLUGIN_ENABLED") == "true"
	var editor := get_editor_interface()
	editor.set_plugin_enabled("howl", enable)
	# The editor saves project settings a moment after a change, as after a click.
	var deadline := OS.get_ticks_msec() + 15000
	while OS.get_ticks_msec() < deadline and _autoload_saved() != enable:
		yield(get_tree().create_timer(0.2), "timeout")
	print("HOWL-EDITOR howl enabled=%s" % str(editor.is_plugin_enabled("howl")).to_lower())
	get_tree().quit()


func _autoload_saved() -> bool:
	var file := File.new()
	if file.open("res://project.godot", File.READ) != OK:
		return false
	var text := file.get_as_text()
	file.close()
	return text.find("\nHowl=") >= 0
