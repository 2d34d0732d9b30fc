extends Node
# Howl.Scores: save scores and read leaderboards. Every call can be waited for with
# yield(call, "completed") and also emits the signal beside it; each completes with a Dictionary
# whose `error` is null on success.

signal score_saved(result)
signal scores_fetched(result)
signal player_scores_fetched(result)
signal top_score_fetched(result)
signal position_fetched(result)
signal scores_around_fetched(result)
signal score_deleted(result)
signal leaderboard_wiped(result)

const Checks = preload("res://addons/howl/checks.gd")

var client: Node


# Saves a score; answers `score_id, position` (null when it did not make the board) and `kept`.
func save_score(player_name, score, metadata = {}, ldboard_name = "main"):
	var defaults := {"score_id": null, "position": null, "kept": false}
	var bad = Checks.first([Checks.name_error(player_name), Checks.score_error(score), Checks.metadata_error(metadata), Checks.name_error(ldboard_name, "ldboard_name")])
	var result: Dictionary
	if bad != null:
		result = yield(client.fail("save_score", defaults, bad), "completed")
	else:
		var body := {"player_name": player_name, "score": score, "metadata": metadata}
		result = yield(client.call_api("POST", _board(ldboard_name) + "/scores", body, defaults), "completed")
	emit_signal("score_saved", result)
	return result


# The best scores of a period; `maximum = 0` fetches them all, page after page.
func get_scores(maximum = 10, ldboard_name = "main", period_offset = 0):
	var defaults := {"scores": [], "period": null, "cursor": null}
	var bad = Checks.first([_count_error(maximum, "maximum"), _offset_error(period_offset), Checks.name_error(ldboard_name, "ldboard_name")])
	var result: Dictionary
	if bad != null:
		result = yield(client.fail("get_scores", defaults, bad), "completed")
	else:
		var path: String = _board(ldboard_name) + "/scores" + client.query(["max", int(maximum), "period_offset", int(period_offset)])
		result = yield(client.call_api("GET", path, null, defaults), "completed")
		# The server sends at most 1,000 a page: "all" follows the cursor to the end.
		while int(maximum) == 0 and result.error == null and typeof(result.cursor) == TYPE_STRING and result.cursor != "":
			var page: Dictionary = yield(client.call_api("GET", path + "&cursor=" + client.encode(result.cursor), null, defaults), "completed")
			if page.error != null:
				result = page
				break
			result.scores += page.scores
			result["cursor"] = page.cursor
	emit_signal("scores_fetched", result)
	return result


# A player's scores in a period, best first, each with its position.
func get_scores_by_player(player_name, maximum = 10, ldboard_name = "main", period_offset = 0):
	var defaults := {"scores": [], "period": null}
	var bad = Checks.first([Checks.name_error(player_name), _count_error(maximum, "maximum"), _offset_error(period_offset), Checks.name_error(ldboard_name, "ldboard_name")])
	var result: Dictionary
	if bad != null:
		result = yield(client.fail("get_scores_by_player", defaults, bad), "completed")
	else:
		var path: String = _board(ldboard_name) + "/players/%s/scores" % _part(player_name) + client.query(["max", int(maximum), "period_offset", int(period_offset)])
		result = yield(client.call_api("GET", path, null, defaults), "completed")
		result.erase("cursor")
	emit_signal("player_scores_fetched", result)
	return result


# A player's best score in a period: `score` is an entry, or null when the player has none.
func get_top_score_by_player(player_name, ldboard_name = "main", period_offset = 0):
	var defaults := {"score": null, "period": null}
	var bad = Checks.first([Checks.name_error(player_name), _offset_error(period_offset), Checks.name_error(ldboard_name, "ldboard_name")])
	var result: Dictionary
	if bad != null:
		result = yield(client.fail("get_top_score_by_player", defaults, bad), "completed")
	else:
		var path: String = _board(ldboard_name) + "/players/%s/top" % _part(player_name) + client.query(["period_offset", int(period_offset)])
		result = yield(client.call_api("GET", path, null, defaults), "completed")
	emit_signal("top_score_fetched", result)
	return result


# The position of a saved score (a String: its score id) or the one a value (a number) would take.
func get_score_position(score_id_or_value, ldboard_name = "main", period_offset = 0):
	var defaults := {"position": null, "period": null}
	var bad = Checks.first([_score_or_id_error(score_id_or_value), _offset_error(period_offset), Checks.name_error(ldboard_name, "ldboard_name")])
	var result: Dictionary
	if bad != null:
		result = yield(client.fail("get_score_position", defaults, bad), "completed")
	else:
		var path: String = _board(ldboard_name) + "/position" + client.query(_score_or_id(score_id_or_value) + ["period_offset", int(period_offset)])
		result = yield(client.call_api("GET", path, null, defaults), "completed")
	emit_signal("position_fetched", result)
	return result


# The scores just above and below a saved score or a value, `count` on each side.
func get_scores_around(score_id_or_value, count = 3, ldboard_name = "main", period_offset = 0):
	var defaults := {"position": null, "scores_above": [], "scores_below": [], "period": null}
	var bad = Checks.first([_score_or_id_error(score_id_or_value), _count_error(count, "count", 50), _offset_error(period_offset), Checks.name_error(ldboard_name, "ldboard_name")])
	var result: Dictionary
	if bad != null:
		result = yield(client.fail("get_scores_around", defaults, bad), "completed")
	else:
		var path: String = _board(ldboard_name) + "/around" + client.query(_score_or_id(score_id_or_value) + ["count", int(count), "period_offset", int(period_offset)])
		result = yield(client.call_api("GET", path, null, defaults), "completed")
	emit_signal("scores_around_fetched", result)
	return result


# Deletes one score (the game must allow client deletes in the dashboard).
func delete_score(score_id):
	var defaults := {"ok": false}
	var bad = Checks.name_error(score_id, "score_id")
	var result: Dictionary
	if bad != null:
		result = yield(client.fail("delete_score", defaults, bad), "completed")
	else:
		result = yield(client.call_api("DELETE", "/v1/scores/" + _part(score_id), null, defaults), "completed")
	emit_signal("score_deleted", result)
	return result


# Deletes every score of a board, in every period (the game must allow client deletes).
func wipe_leaderboard(ldboard_name = "main"):
	var defaults := {"ok": false}
	var bad = Checks.name_error(ldboard_name, "ldboard_name")
	var result: Dictionary
	if bad != null:
		result = yield(client.fail("wipe_leaderboard", defaults, bad), "completed")
	else:
		result = yield(client.call_api("DELETE", _board(ldboard_name) + "/scores", null, defaults), "completed")
	emit_signal("leaderboard_wiped", result)
	return result


func _board(ldboard_name) -> String:
	return "/v1/leaderboards/" + _part(ldboard_name)


func _part(value) -> String:
	return client.encode(str(value).strip_edges())


static func _score_or_id(value) -> Array:
	if typeof(value) == TYPE_STRING:
		return ["score_id", value]
	return ["score", value]


static func _score_or_id_error(value):
	if typeof(value) == TYPE_STRING:
		return Checks.name_error(value, "score_id")
	return Checks.score_error(value)


# The server's own bounds: at most 1,000 scores a call (0: all), 50 on each side of a score.
static func _count_error(value, field: String, most: int = 1000):
	if not typeof(value) in [TYPE_INT, TYPE_REAL] or value < 0 or value > most:
		return Checks.error("InvalidParameter", "%s must be a whole number from 0 to %d." % [field, most], field)
	return null


static func _offset_error(value):
	if not typeof(value) in [TYPE_INT, TYPE_REAL] or value > 0:
		return Checks.error("InvalidParameter", "period_offset must be 0 (the current period) or below.", "period_offset")
	return null
