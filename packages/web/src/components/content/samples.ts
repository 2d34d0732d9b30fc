/**
 * Code samples shared by the guides, so every page shows the same Howl plugin API: a `Howl`
 * autoload with `Scores`, `Players` and `PlayerData`; every call returns a Dictionary, with
 * `error`: null on success, `{code, message}` when the call failed.
 */

export const CONFIG_GODOT3 = `# In your first scene (or any autoload that runs before Howl is used)
func _ready():
	Howl.configure({
		"api_key": "YOUR_API_KEY",
		"game_id": "YOUR_GAME_ID",
		"log_level": 1, # 0: errors, 1: info, 2: debug
		"game_version": "1.0.0", # your game's version
	})
`;

export const CONFIG_GODOT4 = `# In your first scene (or any autoload that runs before Howl is used)
func _ready() -> void:
	Howl.configure({
		"api_key": "YOUR_API_KEY",
		"game_id": "YOUR_GAME_ID",
		"log_level": 1, # 0: errors, 1: info, 2: debug
	})
`;

export const PING_GODOT3 = `func _ready():
	var result = yield(Howl.ping(), "completed")
	if result.error != null:
		push_error("Howl: %s (%s)" % [result.error.message, result.error.code])
	else:
		print("Howl is set up for ", result.name)
`;

export const PING_GODOT4 = `func _ready() -> void:
	var result: Dictionary = await Howl.ping()
	if result.error != null:
		push_error("Howl: %s (%s)" % [result.error.message, result.error.code])
	else:
		print("Howl is set up for ", result.name)
`;

export const AWAIT_GODOT3 = `func _on_game_over(score: int):
	var result = yield(Howl.Scores.save_score(player_name, score), "completed")
	if result.error != null:
		push_error(result.error.message)
		return
	$PositionLabel.text = "You placed #%d" % result.position

	var top = yield(Howl.Scores.get_scores(10), "completed")
	for entry in top.scores:
		print(entry.position, ". ", entry.player_name, ": ", entry.score)
`;

export const AWAIT_GODOT4 = `func _on_game_over(score: int) -> void:
	var result: Dictionary = await Howl.Scores.save_score(player_name, score)
	if result.error != null:
		push_error(result.error.message)
		return
	$PositionLabel.text = "You placed #%d" % result.position

	var top: Dictionary = await Howl.Scores.get_scores(10)
	for entry in top.scores:
		print(entry.position, ". ", entry.player_name, ": ", entry.score)
`;
