extends RefCounted
## Scores on game A: save, read, positions, neighbours, periods, encoded names, deletes.

const TestHelper := preload("res://test_helper.gd")


func run(t: TestHelper) -> void:
	t.configure_a()
	var p1 := t.unique("wolf")
	var p2 := t.unique("fox")
	var saved: Dictionary = await Howl.Scores.save_score(p1, 100)
	t.expect(t.ok(saved) and saved.score_id is String and saved.score_id.length() == 36 and saved.position == 1 and saved.kept == true,
		"save_score", t.said(saved))
	var best_id: String = str(saved.score_id)

	var with_meta: Dictionary = await Howl.Scores.save_score(p2, 50, {"level": 3, "class": "mage"}, "main")
	var board: Dictionary = await Howl.Scores.get_scores(10)
	var entry_p2 := _entry_of(board.scores, p2)
	t.expect(t.ok(with_meta) and entry_p2.get("metadata") is Dictionary and entry_p2.metadata.get("level") == 3 and entry_p2.metadata.get("class") == "mage",
		"save_score_metadata", "%s / %s" % [t.said(with_meta), entry_p2])

	var second: Dictionary = await Howl.Scores.save_score(p1, 80)
	board = await Howl.Scores.get_scores(2)
	t.expect(t.ok(board) and board.scores.size() == 2 and board.scores[0].player_name == p1 and board.scores[0].score == 100
		and board.scores[0].position == 1 and board.scores[0].engine == 4 and board.period == null and board.has("cursor"),
		"get_scores", t.said(board))

	var everything: Dictionary = await Howl.Scores.get_scores(0)
	t.expect(t.ok(everything) and everything.scores.size() >= 5 and everything.cursor == null and _entry_of(everything.scores, p2).get("score") == 50,
		"get_scores_all", "%d scores: %s" % [everything.scores.size(), t.said(everything)])

	var mine: Dictionary = await Howl.Scores.get_scores_by_player(p1)
	t.expect(t.ok(mine) and mine.scores.size() == 2 and mine.scores[0].score == 100 and mine.scores[1].score == 80 and mine.period == null,
		"get_scores_by_player", t.said(mine))

	var top: Dictionary = await Howl.Scores.get_top_score_by_player(p1)
	var none: Dictionary = await Howl.Scores.get_top_score_by_player(t.unique("nobody"))
	t.expect(t.ok(top) and top.score is Dictionary and top.score.score_id == best_id and t.ok(none) and none.score == null,
		"get_top_score_by_player", "%s / %s" % [t.said(top), t.said(none)])

	var by_id: Dictionary = await Howl.Scores.get_score_position(best_id)
	t.expect(t.ok(by_id) and by_id.position == 1, "score_position_by_id", t.said(by_id))
	var by_value: Dictionary = await Howl.Scores.get_score_position(90)
	var off_board: Dictionary = await Howl.Scores.get_score_position(-5.5)
	t.expect(t.ok(by_value) and by_value.position == 2 and t.ok(off_board) and (off_board.position == null or off_board.position > 5),
		"score_position_by_value", "%s / %s" % [t.said(by_value), t.said(off_board)])

	var around: Dictionary = await Howl.Scores.get_scores_around(str(second.score_id), 1)
	var around_default: Dictionary = await Howl.Scores.get_scores_around(75)
	t.expect(t.ok(around) and around.position == 2 and around.scores_above.size() == 1 and around.scores_above[0].score == 100
		and around.scores_below.size() == 1 and around.scores_below[0].score == 50 and t.ok(around_default) and around_default.position == 3 and around_default.scores_above.size() == 2 and around_default.scores_below.size() == 3,
		"scores_around", "%s / %s" % [t.said(around), t.said(around_default)])

	var weekly: Dictionary = await Howl.Scores.save_score(p1, 7, {}, "weekly")
	var current: Dictionary = await Howl.Scores.get_scores(10, "weekly")
	var previous: Dictionary = await Howl.Scores.get_scores(10, "weekly", -1)
	var p: Variant = current.period
	t.expect(t.ok(weekly) and t.ok(current) and current.scores.size() == 1 and p is Dictionary and p.offset == 0 and p.start is String
		and p.end is String and p.next_reset == p.end and t.ok(previous) and previous.scores.size() == 0 and previous.period.offset == -1
		and previous.period.end == p.start, "time_based_period", "%s / %s" % [t.said(current), t.said(previous)])

	# Names with every character a URL treats specially, and text beyond ASCII.
	var odd := "a b&c#d/e?f é 狼 %s" % t.run_id()
	var odd_saved: Dictionary = await Howl.Scores.save_score(odd, 33)
	var odd_scores: Dictionary = await Howl.Scores.get_scores_by_player(odd)
	var odd_top: Dictionary = await Howl.Scores.get_top_score_by_player(odd)
	var odd_data: Dictionary = await Howl.PlayerData.save_player_data(odd, {"ok": true})
	var odd_char: Dictionary = await Howl.PlayerData.get_character_data(odd, "Knight & Squire #2?")
	t.configure_a({"base_url": t.env("HOWL_FAULT_URL") + "/echo"})
	var echo: Dictionary = await Howl.Scores.get_scores_by_player(odd)
	t.configure_a()
	t.expect(t.ok(odd_saved) and t.ok(odd_scores) and odd_scores.scores.size() == 1 and odd_scores.scores[0].player_name == odd
		and t.ok(odd_top) and odd_top.score is Dictionary and odd_top.score.player_name == odd and t.ok(odd_data) and odd_data.player_name == odd
		and t.ok(odd_char) and odd_char.character == "Knight & Squire #2?"
		and str(echo.get("path")).begins_with("/echo/v1/leaderboards/main/players/a%20b%26c%23d%2Fe%3Ff%20%C3%A9%20%E7%8B%BC%20"),
		"names_encoded", "%s / %s / %s / %s / path %s" % [t.said(odd_saved), t.said(odd_scores), t.said(odd_data), t.said(odd_char), echo.get("path")])

	var deleted: Dictionary = await Howl.Scores.delete_score(str(with_meta.score_id))
	board = await Howl.Scores.get_scores(0)
	var gone: Dictionary = await Howl.Scores.delete_score(str(with_meta.score_id))
	t.expect(t.ok(deleted) and deleted.ok == true and _entry_of(board.scores, p2).is_empty() and t.code_of(gone) == "ScoreNotFound",
		"delete_score", "%s / again: %s" % [t.said(deleted), t.said(gone)])

	var wiped: Dictionary = await Howl.Scores.wipe_leaderboard("weekly")
	current = await Howl.Scores.get_scores(10, "weekly")
	var missing: Dictionary = await Howl.Scores.wipe_leaderboard("no-such-board")
	t.expect(t.ok(wiped) and wiped.ok == true and t.ok(current) and current.scores.is_empty() and t.code_of(missing) == "LeaderboardNotFound",
		"wipe_leaderboard", "%s / %s / %s" % [t.said(wiped), t.said(current), t.said(missing)])


static func _entry_of(scores: Array, player_name: String) -> Dictionary:
	for entry in scores:
		if entry.get("player_name") == player_name:
			return entry
	return {}
