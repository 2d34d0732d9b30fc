extends Control
# What the player scenes share: the done signal, the error label and the busy state.
# Each scene names its controls Name, Password, Submit, Error… (Godot 3 has no %unique names,
# so each script also keeps them in variables).

# Emitted with the call's result once the scene's call (or its last step) succeeded.
signal done(result)

# True while a call is in flight; the scene's buttons are disabled meanwhile.
var busy := false

onready var _error_label: Label = find_node("Error")
onready var _status_label: Label = find_node("Status")


# The buttons a call in flight disables; each scene lists its own.
func _buttons() -> Array:
	return []


# Starts a call: clears the messages and disables the buttons. Returns the Howl autoload, or
# null when a call is already in flight or the plugin is not enabled (then it says so).
func _begin() -> Node:
	if busy:
		return null
	var howl := get_node_or_null("/root/Howl")
	if howl == null:
		_show_error("The Howl plugin is not enabled (Project Settings → Plugins).")
		return null
	busy = true
	_show_error("")
	_show_status("")
	for button in _buttons():
		button.disabled = true
	return howl


# Ends a call: enables the buttons and shows the error, if any. True when the call succeeded.
func _finish(result) -> bool:
	busy = false
	for button in _buttons():
		button.disabled = false
	if typeof(result) != TYPE_DICTIONARY:
		_show_error("The Howl plugin gave no answer.")
		return false
	var error = result.get("error")
	if error == null:
		return true
	var message := ""
	if typeof(error) == TYPE_DICTIONARY:
		message = str(error.get("message", error.get("code", "")))
	_show_error(message if message != "" else "Something went wrong. Please try again.")
	return false


# The player's name in a result, or `fallback` when the answer carries none.
func _player_name(result: Dictionary, fallback: String) -> String:
	var player = result.get("player")
	return str(player.get("player_name", fallback)) if typeof(player) == TYPE_DICTIONARY else fallback


func _show_error(message: String) -> void:
	if _error_label:
		_error_label.text = message
		_error_label.visible = message != ""


func _show_status(message: String) -> void:
	if _status_label:
		_status_label.text = message
		_status_label.visible = message != ""


# Enter in a field presses the button, as players expect from a form.
func _submit_on_enter(fields: Array, button: Button) -> void:
	for field in fields:
		field.connect("text_entered", self, "_on_field_entered", [button])


func _on_field_entered(_text: String, button: Button) -> void:
	button.emit_signal("pressed")
