extends "res://addons/howl/scenes/player_auth/howl_form.gd"
# Resets a forgotten password in two steps: the player's name, which mails a code; then the code
# and the new password twice. Emits done(result) once the new password is set.

# The player name the field starts with.
export var player_name := ""

onready var request_step: Control = $Center/Card/Margin/Box/RequestStep
onready var confirm_step: Control = $Center/Card/Margin/Box/ConfirmStep
onready var name_field: LineEdit = $Center/Card/Margin/Box/RequestStep/Name
onready var request: Button = $Center/Card/Margin/Box/RequestStep/Request
onready var code_field: LineEdit = $Center/Card/Margin/Box/ConfirmStep/Code
onready var password_field: LineEdit = $Center/Card/Margin/Box/ConfirmStep/Password
onready var confirm_field: LineEdit = $Center/Card/Margin/Box/ConfirmStep/Confirm
onready var submit: Button = $Center/Card/Margin/Box/ConfirmStep/Submit


func _ready() -> void:
	name_field.text = player_name
	confirm_step.visible = false
	request.connect("pressed", self, "_on_request")
	submit.connect("pressed", self, "_on_submit")
	_submit_on_enter([name_field], request)
	_submit_on_enter([code_field, password_field, confirm_field], submit)


func _buttons() -> Array:
	return [request, submit]


func _on_request() -> void:
	var howl := _begin()
	if howl == null:
		return
	var result = yield(howl.Players.request_password_reset(name_field.text.strip_edges()), "completed")
	if _finish(result):
		request_step.visible = false
		confirm_step.visible = true
		_show_status("We mailed a 6-digit code to %s's email address." % name_field.text.strip_edges())
		code_field.grab_focus()


func _on_submit() -> void:
	var howl := _begin()
	if howl == null:
		return
	var result = yield(howl.Players.confirm_password_reset(name_field.text.strip_edges(), code_field.text.strip_edges(), password_field.text, confirm_field.text), "completed")
	if _finish(result):
		password_field.text = ""
		confirm_field.text = ""
		_show_status("Your new password is set. You can log in with it.")
		emit_signal("done", result)
