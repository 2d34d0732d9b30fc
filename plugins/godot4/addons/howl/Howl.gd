extends Node
## The Howl autoload: call `Howl.configure({...})` once, then use `Howl.Scores`, `Howl.Players`
## and `Howl.PlayerData`. Every call can be awaited and always completes with a Dictionary whose
## `error` is null on success or `{code, message}` when the call failed.

signal pinged(result: Dictionary)

const VERSION := "0.9.7"

const HowlHttp := preload("http.gd")
const HowlScores := preload("scores.gd")
const HowlPlayers := preload("players.gd")
const HowlPlayerData := preload("player_data.gd")

var Scores: HowlScores
var Players: HowlPlayers
var PlayerData: HowlPlayerData

var _http: HowlHttp


func _init() -> void:
	# Calls made while the game is paused (a game-over or pause menu) must still go out and finish.
	process_mode = Node.PROCESS_MODE_ALWAYS
	_http = HowlHttp.new(self, VERSION)
	Players = HowlPlayers.new(_http)
	Players.name = "Players"
	add_child(Players)
	# The HTTP layer asks the players object for the token of the logged-in player.
	_http.session = Players
	Scores = HowlScores.new(_http)
	Scores.name = "Scores"
	add_child(Scores)
	PlayerData = HowlPlayerData.new(_http)
	PlayerData.name = "PlayerData"
	add_child(PlayerData)


## Sets the game's credentials and options; see the keys in the plugin's guide.
func configure(config: Dictionary) -> void:
	var previous_game := _http.game_id
	_http.configure(config)
	# A session belongs to one game: another game's calls must not carry it.
	if previous_game != "" and previous_game != _http.game_id:
		Players.forget_session_in_memory()


## Checks the configuration: answers `{game_id, name}` of the game the key belongs to.
func ping() -> Dictionary:
	var result: Dictionary = await _http.call_api(HTTPClient.METHOD_GET, "/v1/ping", null, {"game_id": null, "name": null})
	pinged.emit(result)
	return result
