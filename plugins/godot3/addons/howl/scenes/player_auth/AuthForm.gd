extends Control
# What the player scenes share: one call at a time, its error shown, `done` when it succeeded.

# Emitted when the scene's call succeeded, with the call's result.
signal done(result)
# Emitted when any call of the scene completed, with or without an error.
signal answered(result)

const ERROR_COLOR := Color(1.0, 0.5, 0.45)
const INFO_COLOR := Color(0.7, 0.9, 1.0)

onready var message_label: Label = $Center/Panel/Box/Message


# Disables `button` for the call about to start; false when a call of that button is still under way.
func _start(button: BaseButton) -> bool:
	if button.disabled:
		return false
	button.disabled = true
	show_message("", false)
	return true


# Shows the result, enables `button` again, emits `done` on success when `is_final`, then `answered`.
func _finish(button: BaseButton, result, success_text: String, is_final: bool) -> bool:
	button.disabled = false
	if typeof(result) != TYPE_DICTIONARY:
		result = {"error": {"code": "InvalidResponse", "message": "No answer."}}
	var error = result.get("error")
	if error != null:
		show_message(error_text(error), true)
	else:
		show_message(success_text, false)
		if is_final:
			emit_signal("done", result)
	emit_signal("answered", result)
	return error == null


func show_message(text: String, is_error: bool) -> void:
	message_label.text = text
	message_label.visible = text != ""
	message_label.add_color_override("font_color", ERROR_COLOR if is_error else INFO_COLOR)


static func error_text(error) -> String:
	if typeof(error) == TYPE_DICTIONARY and str(error.get("message", "")) != "":
		return str(error.message)
	if typeof(error) == TYPE_DICTIONARY:
		return str(error.get("code", "Error"))
	return str(error)
