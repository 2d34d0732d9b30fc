extends "res://addons/howl/scenes/player_auth/AuthForm.gd"
# Resets a password: step 1 mails a code to the player, step 2 sets the new password with it.

onready var step1: Control = $Center/Panel/Box/Step1
onready var step2: Control = $Center/Panel/Box/Step2
onready var name_edit: LineEdit = $Center/Panel/Box/Step1/NameEdit
onready var request_button: Button = $Center/Panel/Box/Step1/RequestButton
onready var code_edit: LineEdit = $Center/Panel/Box/Step2/CodeEdit
onready var password_edit: LineEdit = $Center/Panel/Box/Step2/PasswordEdit
onready var confirm_edit: LineEdit = $Center/Panel/Box/Step2/ConfirmEdit
onready var submit_button: Button = $Center/Panel/Box/Step2/SubmitButton
onready var back_button: Button = $Center/Panel/Box/Step2/BackButton


func _ready() -> void:
	request_button.connect("pressed", self, "_on_request_pressed")
	submit_button.connect("pressed", self, "_on_submit_pressed")
	back_button.connect("pressed", self, "show_step", [1])
	show_step(1)


func show_step(step: int) -> void:
	step1.visible = step == 1
	step2.visible = step == 2


func _on_request_pressed() -> void:
	if not _start(request_button):
		return
	var result = yield(Howl.Players.request_password_reset(name_edit.text.strip_edges()), "completed")
	if _finish(request_button, result, "We emailed you a code. Enter it with your new password.", false):
		show_step(2)


func _on_submit_pressed() -> void:
	if not _start(submit_button):
		return
	var result = yield(Howl.Players.confirm_password_reset(name_edit.text.strip_edges(), code_edit.text.strip_edges(), password_edit.text, confirm_edit.text), "completed")
	if _finish(submit_button, result, "Your password is changed. You can log in with it.", true):
		code_edit.text = ""
		password_edit.text = ""
		confirm_edit.text = ""
