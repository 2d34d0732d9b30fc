extends Node
# Howl.PlayerData: one JSON document per player and per character, and the game's state (the
# reserved player name `__game__`). Writes can be conditional on the stored `version`.

signal player_data_fetched(result)
signal player_data_saved(result)
signal player_data_deleted(result)
signal character_data_fetched(result)
signal character_data_saved(result)
signal character_data_deleted(result)
signal characters_fetched(result)

const Checks = preload("res://addons/howl/checks.gd")
const GAME_STATE = "__game__"

var client: Node


# A player's document: `player_data` ({} and version 0 when nothing was saved yet).
func get_player_data(player_name):
	var result: Dictionary = yield(_get_doc("get_player_data", player_name, null), "completed")
	emit_signal("player_data_fetched", result)
	return result


# Saves a player's document: `overwrite = false` merges its top-level keys into the stored one;
# `if_version` (not -1) writes only when the stored version is that one.
func save_player_data(player_name, data, overwrite = true, if_version = -1):
	var result: Dictionary = yield(_save_doc("save_player_data", player_name, null, data, overwrite, if_version), "completed")
	emit_signal("player_data_saved", result)
	return result


# Deletes those top-level keys of a player's document, or all of it with `keys = []`.
func delete_player_data(player_name, keys = []):
	var result: Dictionary = yield(_delete_doc("delete_player_data", player_name, null, keys), "completed")
	emit_signal("player_data_deleted", result)
	return result


func get_character_data(player_name, character):
	var result: Dictionary = yield(_get_doc("get_character_data", player_name, character), "completed")
	emit_signal("character_data_fetched", result)
	return result


func save_character_data(player_name, character, data, overwrite = true, if_version = -1):
	var result: Dictionary = yield(_save_doc("save_character_data", player_name, character, data, overwrite, if_version), "completed")
	emit_signal("character_data_saved", result)
	return result


func delete_character_data(player_name, character, keys = []):
	var result: Dictionary = yield(_delete_doc("delete_character_data", player_name, character, keys), "completed")
	emit_signal("character_data_deleted", result)
	return result


# The names of the characters a player keeps data for.
func get_characters(player_name):
	var defaults := {"player_name": player_name, "characters": []}
	var bad = Checks.name_error(player_name)
	var result: Dictionary
	if bad != null:
		result = yield(client.fail("get_characters", defaults, bad), "completed")
	else:
		result = yield(client.call_api("GET", _path(player_name, null) + "/characters", null, defaults), "completed")
	emit_signal("characters_fetched", result)
	return result


func _get_doc(what: String, player_name, character):
	var defaults := _defaults(player_name, character)
	var bad = _names_error(player_name, character)
	if bad != null:
		return yield(client.fail(what, defaults, bad), "completed")
	return yield(client.call_api("GET", _path(player_name, character), null, defaults), "completed")


func _save_doc(what: String, player_name, character, data, overwrite, if_version):
	var defaults := _defaults(player_name, character)
	var bad = _names_error(player_name, character)
	if bad == null:
		bad = Checks.player_data_error(data)
	if bad == null and not typeof(if_version) in [TYPE_INT, TYPE_REAL]:
		bad = Checks.error("InvalidParameter", "if_version must be a version number, or -1 to write unconditionally.", "if_version")
	if bad != null:
		return yield(client.fail(what, defaults, bad), "completed")
	var body := {"player_data": data, "overwrite": overwrite != false}
	if int(if_version) >= 0:
		body["if_version"] = int(if_version)
	return yield(client.call_api("PUT", _path(player_name, character), body, defaults), "completed")


func _delete_doc(what: String, player_name, character, keys):
	var defaults := _defaults(player_name, character)
	var bad = _names_error(player_name, character)
	if bad == null:
		bad = Checks.keys_error(keys)
	if bad != null:
		return yield(client.fail(what, defaults, bad), "completed")
	# Without a body the whole document goes; with keys, only those.
	var body = {"keys": Array(keys)} if keys.size() > 0 else null
	return yield(client.call_api("DELETE", _path(player_name, character), body, defaults), "completed")


static func _defaults(player_name, character) -> Dictionary:
	var defaults := {"player_name": player_name, "player_data": {}, "version": 0, "updated_at": null}
	if character != null:
		defaults["character"] = character
	return defaults


static func _names_error(player_name, character):
	var bad = Checks.name_error(player_name)
	if bad == null and character != null:
		bad = Checks.name_error(character, "character")
	return bad


func _path(player_name, character) -> String:
	var path: String = "/v1/player-data/" + client.encode(str(player_name).strip_edges())
	if character != null:
		path += "/characters/" + client.encode(str(character).strip_edges())
	return path
