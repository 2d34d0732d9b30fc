extends "res://addons/howl/scenes/player_auth/howl_form.gd"
## Registers a player with a name and a password (the Username / password registration type).
## Emits done(result) once registered.

@onready var name_field: LineEdit = %Name
@onready var password_field: LineEdit = %Password
@onready var confirm_field: LineEdit = %Confirm
@onready var submit: Button = %Submit


func _ready() -> void:
	submit.pressed.connect(_on_submit)
	_submit_on_enter([name_field, password_field, confirm_field], submit)


func _buttons() -> Array[Button]:
	return [submit]


func _on_submit() -> void:
	var howl := _begin()
	if howl == null:
		return
	var result: Variant = await howl.Players.register_player(
		name_field.text.strip_edges(), "", password_field.text, confirm_field.text
	)
	if _finish(result):
		password_field.text = ""
		confirm_field.text = ""
		_show_status("Registered as %s." % _player_name(result, name_field.text.strip_edges()))
		done.emit(result)
