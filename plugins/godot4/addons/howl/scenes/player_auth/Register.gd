extends "res://addons/howl/scenes/player_auth/howl_form.gd"
## Registers a player with a name, an email address and a password (the Email / username /
## password registration type). When the game confirms addresses, it goes on to the code step
## (the ConfirmEmail scene inside it). Emits done(result) once the player can log in: the
## registration's result, or the confirmation's.

@onready var form: Control = %Form
@onready var confirm_step: Control = %ConfirmStep
@onready var name_field: LineEdit = %Name
@onready var email_field: LineEdit = %Email
@onready var password_field: LineEdit = %Password
@onready var confirm_field: LineEdit = %Confirm
@onready var submit: Button = %Submit


func _ready() -> void:
	confirm_step.visible = false
	submit.pressed.connect(_on_submit)
	confirm_step.done.connect(func(result: Dictionary) -> void: done.emit(result))
	_submit_on_enter([name_field, email_field, password_field, confirm_field], submit)


func _buttons() -> Array[Button]:
	return [submit]


func _on_submit() -> void:
	var howl := _begin()
	if howl == null:
		return
	var result: Variant = await howl.Players.register_player(
		name_field.text.strip_edges(), email_field.text.strip_edges(), password_field.text, confirm_field.text
	)
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
	done.emit(result)
