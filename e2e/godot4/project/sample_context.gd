extends Node
## What the site's samples refer to, as a game's own scene would hold it: the player's name and
## score, form fields reached as %Name or $Name, and the scene's own functions. The harness puts
## each sample on top of this (see samples_harness.gd) and reads back what the sample did.

var player_name := ""
var password := ""
var score := 120
var score_id := ""
var level := 1
## What the sample did beside its Howl calls: forms shown, scenes changed to, scores listed.
var did: Array[String] = []


func _init() -> void:
	for field in ["Name", "Email", "Password", "ConfirmPassword", "Code"]:
		_add(LineEdit.new(), field)
	_add(Label.new(), "Error")
	_add(Label.new(), "PositionLabel")
	var board := Node.new()
	board.set_script(preload("res://sample_leaderboard.gd"))
	_add(board, "Leaderboard")
	var body := Node2D.new()
	body.position = Vector2(12, 34)
	_add(body, "Player")


func _add(node: Node, node_name: String) -> void:
	node.name = node_name
	add_child(node)
	# Reachable as %Name as well as $Name, as in a scene where the field is marked unique.
	node.owner = self
	node.unique_name_in_owner = true


func show_code_form() -> void:
	did.append("show_code_form")


func show_login_form() -> void:
	did.append("show_login_form")


## Stands for get_tree().change_scene_to_file(): the sample's scene must exist and load, but the
## test's own scene stays.
func change_scene(path: String) -> Error:
	did.append("change_scene " + path)
	if path.begins_with("res://addons/howl/"):
		var scene: PackedScene = load(path) if ResourceLoader.exists(path) else null
		if scene == null:
			did.append("missing scene " + path)
			return ERR_FILE_NOT_FOUND
	return OK
