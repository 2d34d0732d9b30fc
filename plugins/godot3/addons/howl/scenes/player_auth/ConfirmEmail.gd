extends "res://addons/howl/scenes/player_auth/AuthForm.gd"
# Confirms a player's email address with the emailed code, or mails a new code.

# Fills the name field, e.g. with the name just registered.
export var player_name: String = ""

onready var name_edit: LineEdit = $Center/Panel/Box/NameEdit
onready var code_edit: LineEdit = $Center/Panel/Box/CodeEdit
onready var submit_button: Button = $Center/Panel/Box/SubmitButton
onready var resend_button: Button = $Center/Panel/Box/ResendButton


func _ready() -> void:
	name_edit.text = player_name
	submit_button.connect("pressed", self, "_on_submit_pressed")
	resend_button.connect("pressed", self, "_on_resend_pressed")


func _on_submit_pressed() -> void:
	if not _start(submit_button):
		return
	var result = yield(Howl.Players.confirm_email(name_edit.text.strip_edges(), code_edit.text.strip_edges()), "completed")
	_finish(submit_button, result, "Your email address is confirmed.", true)


func _on_resend_pressed() -> void:
	if not _start(resend_button):
		return
	var result = yield(Howl.Players.resend_confirmation_code(name_edit.text.strip_edges()), "completed")
	_finish(resend_button, result, "A new code is on its way.", false)
