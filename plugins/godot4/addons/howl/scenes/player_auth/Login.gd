extends "res://addons/howl/scenes/player_auth/howl_form.gd"
## Logs a player in: name, password and remember me. Emits done(result) once logged in.

## The player name the field starts with.
@export var player_name := ""

@onready var name_field: LineEdit = %Name
@onready var password_field: LineEdit = %Password
@onready var remember_me: CheckBox = %RememberMe
@onready var submit: Button = %Submit


func _ready() -> void:
	name_field.text = player_name
	submit.pressed.connect(_on_submit)
	_submit_on_enter([name_field, password_field], submit)


func _buttons() -> Array[Button]:
	return [submit]


func _on_submit() -> void:
	var howl := _begin()
	if howl == null:
		return
	var result: Variant = await howl.Players.login_player(
		name_field.text.strip_edges(), password_field.text, remember_me.button_pressed
	)
	if _finish(result):
		# The password has done its job; it should not stay in memory in a visible field.
		password_field.text = ""
		_show_status("Logged in as %s." % _player_name(result, name_field.text.strip_edges()))
		done.emit(result)
