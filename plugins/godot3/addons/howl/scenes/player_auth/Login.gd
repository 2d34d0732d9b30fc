extends "res://addons/howl/scenes/player_auth/AuthForm.gd"
# Logs a player in, optionally keeping a saved session on the device.

onready var name_edit: LineEdit = $Center/Panel/Box/NameEdit
onready var password_edit: LineEdit = $Center/Panel/Box/PasswordEdit
onready var remember_check: CheckBox = $Center/Panel/Box/RememberCheck
onready var submit_button: Button = $Center/Panel/Box/SubmitButton


func _ready() -> void:
	submit_button.connect("pressed", self, "_on_submit_pressed")
	password_edit.connect("text_entered", self, "_on_text_entered")


func _on_text_entered(_text: String) -> void:
	submit_button.emit_signal("pressed")


func _on_submit_pressed() -> void:
	if not _start(submit_button):
		return
	var result = yield(Howl.Players.login_player(name_edit.text.strip_edges(), password_edit.text, remember_check.pressed), "completed")
	if _finish(submit_button, result, "Logged in.", true):
		password_edit.text = ""
