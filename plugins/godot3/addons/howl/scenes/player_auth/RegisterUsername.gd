extends "res://addons/howl/scenes/player_auth/AuthForm.gd"
# Registers a player with a name and a password (the username / password registration type).

onready var name_edit: LineEdit = $Center/Panel/Box/NameEdit
onready var password_edit: LineEdit = $Center/Panel/Box/PasswordEdit
onready var confirm_edit: LineEdit = $Center/Panel/Box/ConfirmEdit
onready var submit_button: Button = $Center/Panel/Box/SubmitButton


func _ready() -> void:
	submit_button.connect("pressed", self, "_on_submit_pressed")


func _on_submit_pressed() -> void:
	if not _start(submit_button):
		return
	var result = yield(Howl.Players.register_player(name_edit.text.strip_edges(), "", password_edit.text, confirm_edit.text), "completed")
	_finish(submit_button, result, "Registered.", true)
