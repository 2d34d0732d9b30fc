extends Node
## Howl.PlayerData: one JSON document per player and per character, and the game's state (the
## reserved player name `__game__`). Writes can be conditional on the stored `version`.

signal player_data_fetched(result: Dictionary)
signal player_data_saved(result: Dictionary)
signal player_data_deleted(result: Dictionary)
signal character_data_fetched(result: Dictionary)
signal character_data_saved(result: Dictionary)
signal character_data_deleted(result: Dictionary)
signal characters_fetched(result: Dictionary)

const Checks := preload("checks.gd")
const GAME_STATE := "__game__"

var _http: RefCounted


func _init(http: RefCounted) -> void:
	_http = http


## A player's document: `player_data` ({} and version 0 when nothing was saved yet).
func get_player_data(player_name) -> Dictionary:
	var result: Dictionary = await _get_doc("get_player_data", player_name, null)
	player_data_fetched.emit(result)
	return result


## Saves a player's document: `overwrite = false` merges its top-level keys into the stored one;
## `if_version` (not -1) writes only when the stored version is that one.
func save_player_data(player_name, data, overwrite = true, if_version = -1) -> Dictionary:
	var result: Dictionary = await _save_doc("save_player_data", player_name, null, data, overwrite, if_version)
	player_data_saved.emit(result)
	return result


## Deletes those top-level keys of a player's document, or all of it with `keys = []`.
func delete_player_data(player_name, keys = []) -> Dictionary:
	var result: Dictionary = await _delete_doc("delete_player_data", player_name, null, keys)
	player_data_deleted.emit(result)
	return result


func get_character_data(player_name, character) -> Dictionary:
	var result: Dictionary = await _get_doc("get_character_data", player_name, character)
	character_data_fetched.emit(result)
	return result


func save_character_data(player_name, character, data, overwrite = true, if_version = -1) -> Dictionary:
	var result: Dictionary = await _save_doc("save_character_data", player_name, character, data, overwrite, if_version)
	character_data_saved.emit(result)
	return result


func delete_character_data(player_name, character, keys = []) -> Dictionary:
	var result: Dictionary = await _delete_doc("delete_character_data", player_name, character, keys)
	character_data_deleted.emit(result)
	return result


## The names of the characters a player keeps data for.
func get_characters(player_name) -> Dictionary:
	var defaults := {"player_name": player_name, "characters": []}
	var bad: Variant = Checks.name_error(player_name)
	var result: Dictionary
	if bad != null:
		result = _http.fail("get_characters", defaults, bad)
	else:
		result = await _http.call_api(HTTPClient.METHOD_GET, _path(player_name, null) + "/characters", null, defaults)
	characters_fetched.emit(result)
	return result


func _get_doc(what: String, player_name, character) -> Dictionary:
	var defaults := _defaults(player_name, character)
	var bad: Variant = _names_error(player_name, character)
	if bad != null:
		return _http.fail(what, defaults, bad)
	return await _http.call_api(HTTPClient.METHOD_GET, _path(player_name, character), null, defaults)


func _save_doc(what: String, player_name, character, data, overwrite, if_version) -> Dictionary:
	var defaults := _defaults(player_name, character)
	var bad: Variant = _names_error(player_name, character)
	if bad == null:
		bad = Checks.player_data_error(data)
	if bad == null and not (if_version is int or if_version is float):
		bad = Checks._error("InvalidParameter", "if_version must be a version number, or -1 to write unconditionally.", "if_version")
	if bad != null:
		return _http.fail(what, defaults, bad)
	var body := {"player_data": data, "overwrite": overwrite != false}
	if int(if_version) >= 0:
		body["if_version"] = int(if_version)
	return await _http.call_api(HTTPClient.METHOD_PUT, _path(player_name, character), body, defaults)


func _delete_doc(what: String, player_name, character, keys) -> Dictionary:
	var defaults := _defaults(player_name, character)
	var bad: Variant = _names_error(player_name, character)
	if bad == null:
		bad = Checks.keys_error(keys)
	if bad != null:
		return _http.fail(what, defaults, bad)
	# Without a body the whole document goes; with keys, only those.
	var body: Variant = {"keys": keys} if not keys.is_empty() else null
	return await _http.call_api(HTTPClient.METHOD_DELETE, _path(player_name, character), body, defaults)


func _defaults(player_name, character) -> Dictionary:
	var defaults := {"player_name": player_name, "player_data": {}, "version": 0, "updated_at": null}
	if character != null:
		defaults["character"] = character
	return defaults


func _names_error(player_name, character) -> Variant:
	var bad: Variant = Checks.name_error(player_name)
	if bad == null and character != null:
		bad = Checks.name_error(character, "character")
	return bad


func _path(player_name, character) -> String:
	var path := "/v1/player-data/" + str(player_name).strip_edges().uri_encode()
	if character != null:
		path += "/characters/" + str(character).strip_edges().uri_encode()
	return path
