extends Node
## Howl.Scores: save scores and read leaderboards. Every call can be awaited and also emits the
## signal beside it; each completes with a Dictionary whose `error` is null on success.

signal score_saved(result: Dictionary)
signal scores_fetched(result: Dictionary)
signal player_scores_fetched(result: Dictionary)
signal top_score_fetched(result: Dictionary)
signal position_fetched(result: Dictionary)
signal scores_around_fetched(result: Dictionary)
signal score_deleted(result: Dictionary)
signal leaderboard_wiped(result: Dictionary)

const Checks := preload("checks.gd")

var _http: RefCounted


func _init(http: RefCounted) -> void:
	_http = http


## Saves a score; answers `score_id, position` (null when it did not make the board) and `kept`.
func save_score(player_name, score, metadata = {}, ldboard_name = "main") -> Dictionary:
	var defaults := {"score_id": null, "position": null, "kept": false}
	var bad: Variant = _first([Checks.name_error(player_name), Checks.score_error(score), Checks.metadata_error(metadata), Checks.name_error(ldboard_name, "ldboard_name")])
	var result: Dictionary
	if bad != null:
		result = _http.fail("save_score", defaults, bad)
	else:
		var body := {"player_name": player_name, "score": score, "metadata": metadata}
		result = await _http.call_api(HTTPClient.METHOD_POST, _board(ldboard_name) + "/scores", body, defaults)
	score_saved.emit(result)
	return result


## The best scores of a period; `maximum = 0` fetches them all, page after page.
func get_scores(maximum = 10, ldboard_name = "main", period_offset = 0) -> Dictionary:
	var defaults := {"scores": [], "period": null, "cursor": null}
	var bad: Variant = _first([_count_error(maximum, "maximum"), _offset_error(period_offset), Checks.name_error(ldboard_name, "ldboard_name")])
	var result: Dictionary
	if bad != null:
		result = _http.fail("get_scores", defaults, bad)
	else:
		var path := _board(ldboard_name) + "/scores?max=%d&period_offset=%d" % [int(maximum), int(period_offset)]
		result = await _http.call_api(HTTPClient.METHOD_GET, path, null, defaults)
		# The server sends at most 1,000 a page: "all" follows the cursor to the end.
		while int(maximum) == 0 and result.error == null and result.cursor is String and result.cursor != "":
			var page: Dictionary = await _http.call_api(HTTPClient.METHOD_GET, path + "&cursor=" + str(result.cursor).uri_encode(), null, defaults)
			if page.error != null:
				result = page
				break
			result.scores.append_array(page.scores)
			result.cursor = page.cursor
	scores_fetched.emit(result)
	return result


## A player's scores in a period, best first, each with its position.
func get_scores_by_player(player_name, maximum = 10, ldboard_name = "main", period_offset = 0) -> Dictionary:
	var defaults := {"scores": [], "period": null}
	var bad: Variant = _first([Checks.name_error(player_name), _count_error(maximum, "maximum"), _offset_error(period_offset), Checks.name_error(ldboard_name, "ldboard_name")])
	var result: Dictionary
	if bad != null:
		result = _http.fail("get_scores_by_player", defaults, bad)
	else:
		var path := _board(ldboard_name) + "/players/%s/scores?max=%d&period_offset=%d" % [_part(player_name), int(maximum), int(period_offset)]
		result = await _http.call_api(HTTPClient.METHOD_GET, path, null, defaults)
		result.erase("cursor")
	player_scores_fetched.emit(result)
	return result


## A player's best score in a period: `score` is an entry, or null when the player has none.
func get_top_score_by_player(player_name, ldboard_name = "main", period_offset = 0) -> Dictionary:
	var defaults := {"score": null, "period": null}
	var bad: Variant = _first([Checks.name_error(player_name), _offset_error(period_offset), Checks.name_error(ldboard_name, "ldboard_name")])
	var result: Dictionary
	if bad != null:
		result = _http.fail("get_top_score_by_player", defaults, bad)
	else:
		var path := _board(ldboard_name) + "/players/%s/top?period_offset=%d" % [_part(player_name), int(period_offset)]
		result = await _http.call_api(HTTPClient.METHOD_GET, path, null, defaults)
	top_score_fetched.emit(result)
	return result


## The position of a saved score (a String: its score id) or the one a value (a number) would take.
func get_score_position(score_id_or_value, ldboard_name = "main", period_offset = 0) -> Dictionary:
	var defaults := {"position": null, "period": null}
	var bad: Variant = _first([_score_or_id_error(score_id_or_value), _offset_error(period_offset), Checks.name_error(ldboard_name, "ldboard_name")])
	var result: Dictionary
	if bad != null:
		result = _http.fail("get_score_position", defaults, bad)
	else:
		var path := _board(ldboard_name) + "/position?%s&period_offset=%d" % [_score_or_id(score_id_or_value), int(period_offset)]
		result = await _http.call_api(HTTPClient.METHOD_GET, path, null, defaults)
	position_fetched.emit(result)
	return result


## The scores just above and below a saved score or a value, `count` on each side.
func get_scores_around(score_id_or_value, count = 3, ldboard_name = "main", period_offset = 0) -> Dictionary:
	var defaults := {"position": null, "scores_above": [], "scores_below": [], "period": null}
	var bad: Variant = _first([_score_or_id_error(score_id_or_value), _count_error(count, "count", 50), _offset_error(period_offset), Checks.name_error(ldboard_name, "ldboard_name")])
	var result: Dictionary
	if bad != null:
		result = _http.fail("get_scores_around", defaults, bad)
	else:
		var path := _board(ldboard_name) + "/around?%s&count=%d&period_offset=%d" % [_score_or_id(score_id_or_value), int(count), int(period_offset)]
		result = await _http.call_api(HTTPClient.METHOD_GET, path, null, defaults)
	scores_around_fetched.emit(result)
	return result


## Deletes one score (the game must allow client deletes in the dashboard).
func delete_score(score_id) -> Dictionary:
	var defaults := {"ok": false}
	var bad: Variant = Checks.name_error(score_id, "score_id")
	var result: Dictionary
	if bad != null:
		result = _http.fail("delete_score", defaults, bad)
	else:
		result = await _http.call_api(HTTPClient.METHOD_DELETE, "/v1/scores/" + _part(score_id), null, defaults)
	score_deleted.emit(result)
	return result


## Deletes every score of a board, in every period (the game must allow client deletes).
func wipe_leaderboard(ldboard_name = "main") -> Dictionary:
	var defaults := {"ok": false}
	var bad: Variant = Checks.name_error(ldboard_name, "ldboard_name")
	var result: Dictionary
	if bad != null:
		result = _http.fail("wipe_leaderboard", defaults, bad)
	else:
		result = await _http.call_api(HTTPClient.METHOD_DELETE, _board(ldboard_name) + "/scores", null, defaults)
	leaderboard_wiped.emit(result)
	return result


func _board(ldboard_name) -> String:
	return "/v1/leaderboards/" + _part(ldboard_name)


func _part(value) -> String:
	return str(value).strip_edges().uri_encode()


func _score_or_id(value) -> String:
	if value is String or value is StringName:
		return "score_id=" + _part(value)
	return "score=" + str(value).uri_encode()


func _score_or_id_error(value) -> Variant:
	if value is String or value is StringName:
		return Checks.name_error(value, "score_id")
	return Checks.score_error(value)


## The server's own bounds: at most 1,000 scores a call (0: all), 50 on each side of a score.
func _count_error(value, field: String, most: int = 1000) -> Variant:
	if not (value is int or value is float) or value < 0 or value > most:
		return {"code": "InvalidParameter", "message": "%s must be a whole number from 0 to %d." % [field, most], "field": field}
	return null


func _offset_error(value) -> Variant:
	if not (value is int or value is float) or value > 0:
		return {"code": "InvalidParameter", "message": "period_offset must be 0 (the current period) or below.", "field": "period_offset"}
	return null


func _first(errors: Array) -> Variant:
	for err in errors:
		if err != null:
			return err
	return null
