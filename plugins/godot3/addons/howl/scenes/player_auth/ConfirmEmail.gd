extends "res://addons/howl/scenes/player_auth/howl_form.gd"
# Confirms a player's email address with the 6-digit code mailed at registration, and mails a new
# code on request. Emits done(result) once confirmed.

# The player name the field starts with (the registration scene sets it).
export var player_name := ""

onready var name_field: LineEdit = $Center/Card/Margin/Box/Name
onready var code_field: LineEdit = $Center/Card/Margin/Box/Code
onready var submit: Button = $Center/Card/Margin/Box/Submit
onready var resend: Button = $Center/Card/Margin/Box/Resend


func _ready() -> void:
	name_field.text = player_name
	submit.connect("pressed", self, "_on_submit")
	resend.connect("pressed", self, "_on_resend")
	_submit_on_enter([name_field, code_field], submit)


func _buttons() -> Array:
	return [submit, resend]


# Fills in the player's name and locks it, for a player who has just registered.
func set_player(new_name: String, message := "") -> void:
	player_name = new_name
	name_field.text = new_name
	name_field.editable = false
	_show_status(message)
	code_field.call_deferred("grab_focus")


func _on_submit() -> void:
	var howl := _begin()
	if howl == null:
		return
	var result = yield(howl.Players.confirm_email(name_field.text.strip_edges(), code_field.text.strip_edges()), "completed")
	if _finish(result):
		_show_status("Your email address is confirmed.")
		emit_signal("done", result)


func _on_resend() -> void:
	var howl := _begin()
	if howl == null:
		return
	var result = yield(howl.Players.resend_confirmation_code(name_field.text.strip_edges()), "completed")
	if _finish(result):
		code_field.text = ""
		_show_status("A new code is on its way to your email address.")
