extends Node
# The Howl autoload: configure once, then call Howl.Scores, Howl.Players and Howl.PlayerData.
# Every call returns at once; wait with yield(call, "completed") or connect its signal.

signal pinged(result)

const VERSION = "0.6.20"

const _Client = preload("res://addons/howl/http.gd")
const _Scores = preload("res://addons/howl/scores.gd")
const _Players = preload("res://addons/howl/players.gd")
const _PlayerData = preload("res://addons/howl/player_data.gd")

var Scores: Node
var Players: Node
var PlayerData: Node

var _client: Node


func _init() -> void:
	# Calls made while the game is paused (a game-over or pause menu) must still go out and finish.
	pause_mode = Node.PAUSE_MODE_PROCESS
	_client = _Client.new()
	_client.name = "Client"
	_client.plugin_version = VERSION
	Scores = _Scores.new()
	Scores.name = "Scores"
	Players = _Players.new()
	Players.name = "Players"
	PlayerData = _PlayerData.new()
	PlayerData.name = "PlayerData"
	for feature in [Scores, Players, PlayerData]:
		feature.client = _client
	_client.players = Players
	add_child(_client)
	add_child(Scores)
	add_child(Players)
	add_child(PlayerData)


# Keys: api_key, game_id (required), log_level, game_version, base_url, timeout_seconds.
func configure(config) -> void:
	if typeof(config) != TYPE_DICTIONARY:
		_client._log(0, "configure expects a Dictionary")
		return
	var previous_game: String = _client.game_id
	_client.configure(config)
	# A session belongs to one game: another game's calls must not carry it.
	if previous_game != "" and previous_game != _client.game_id:
		Players.forget_session_in_memory()
	if not _client.is_configured():
		_client._log(0, "configure needs api_key and game_id.")
	else:
		_client._log(1, "configured for game %s at %s" % [_client.game_id, _client.base_url])


# Checks the configuration: answers {game_id, name}.
func ping():
	var result = yield(_client.call_api("GET", "/v1/ping", null, {"game_id": null, "name": null}), "completed")
	emit_signal("pinged", result)
	return result
