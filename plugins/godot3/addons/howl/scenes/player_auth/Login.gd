extends "res://addons/howl/scenes/player_auth/howl_form.gd"
# Logs a player in: name, password and remember me. Emits done(result) once logged in.

# The player name the field starts with.
export var player_name := ""

onready var name_field: LineEdit = $Center/Card/Margin/Box/Name
onready var password_field: LineEdit = $Center/Card/Margin/Box/Password
onready var remember_me: CheckBox = $Center/Card/Margin/Box/RememberMe
onready var submit: Button = $Center/Card/Margin/Box/Submit


func _ready() -> void:
	name_field.text = player_name
	submit.connect("pressed", self, "_on_submit")
	_submit_on_enter([name_field, password_field], submit)


func _buttons() -> Array:
	return [submit]


func _on_submit() -> void:
	var howl := _begin()
	if howl == null:
		return
	var result = yield(howl.Players.login_player(name_field.text.strip_edges(), password_field.text, remember_me.pressed), "completed")
	if _finish(result):
		# The password has done its job; it should not stay in a visible field.
		password_field.text = ""
		_show_status("Logged in as %s." % _player_name(result, name_field.text.strip_edges()))
		emit_signal("done", result)
