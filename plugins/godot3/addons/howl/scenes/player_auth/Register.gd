extends "res://addons/howl/scenes/player_auth/howl_form.gd"
# Registers a player with a name, an email address and a password (the Email / username /
# password registration type). When the game confirms addresses, it goes on to the code step
# (the ConfirmEmail scene inside it). Emits done(result) once the player can log in: the
# registration's result, or the confirmation's.

onready var form: Control = $Form
onready var confirm_step: Control = $ConfirmStep
onready var name_field: LineEdit = $Form/Card/Margin/Box/Name
onready var email_field: LineEdit = $Form/Card/Margin/Box/Email
onready var password_field: LineEdit = $Form/Card/Margin/Box/Password
onready var confirm_field: LineEdit = $Form/Card/Margin/Box/Confirm
onready var submit: Button = $Form/Card/Margin/Box/Submit


func _ready() -> void:
	confirm_step.visible = false
	submit.connect("pressed", self, "_on_submit")
	confirm_step.connect("done", self, "_on_confirmed")
	_submit_on_enter([name_field, email_field, password_field, confirm_field], submit)


func _buttons() -> Array:
	return [submit]


func _on_submit() -> void:
	var howl := _begin()
	if howl == null:
		return
	var result = yield(howl.Players.register_player(name_field.text.strip_edges(), email_field.text.strip_edges(), password_field.text, confirm_field.text), "completed")
	if not _finish(result):
		return
	password_field.text = ""
	confirm_field.text = ""
	var registered_name := _player_name(result, name_field.text.strip_edges())
	if result.get("confirmation_required", false):
		form.visible = false
		confirm_step.visible = true
		confirm_step.set_player(registered_name, "We mailed a 6-digit code to %s." % email_field.text.strip_edges())
		return
	_show_status("Registered as %s." % registered_name)
	emit_signal("done", result)


func _on_confirmed(result) -> void:
	emit_signal("done", result)
