extends "res://addons/howl/scenes/player_auth/howl_form.gd"
# Registers a player with a name and a password (the Username / password registration type).
# Emits done(result) once registered.

onready var name_field: LineEdit = $Center/Card/Margin/Box/Name
onready var password_field: LineEdit = $Center/Card/Margin/Box/Password
onready var confirm_field: LineEdit = $Center/Card/Margin/Box/Confirm
onready var submit: Button = $Center/Card/Margin/Box/Submit


func _ready() -> void:
	submit.connect("pressed", self, "_on_submit")
	_submit_on_enter([name_field, password_field, confirm_field], submit)


func _buttons() -> Array:
	return [submit]


func _on_submit() -> void:
	var howl := _begin()
	if howl == null:
		return
	var result = yield(howl.Players.register_player(name_field.text.strip_edges(), "", password_field.text, confirm_field.text), "completed")
	if _finish(result):
		password_field.text = ""
		confirm_field.text = ""
		_show_status("Registered as %s." % _player_name(result, name_field.text.strip_edges()))
		emit_signal("done", result)
