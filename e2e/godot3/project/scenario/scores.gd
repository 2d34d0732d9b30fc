extends Reference
# Scores on game A: save, read, positions, neighbours, periods, encoded names, deletes.


func run(t):
	t.configure_a()
	var wiped_first = yield(Howl.Scores.wipe_leaderboard("main"), "completed")
	if wiped_first.error != null:
		t.fail_check("wipe_leaderboard", "could not start from an empty board: %s" % t.show(wiped_first))
	var p1 = t.unique("scorer")
	var p2 = t.unique("mage")

	var saved = yield(Howl.Scores.save_score(p1, 100), "completed")
	t.expect(saved.error == null and typeof(saved.score_id) == TYPE_STRING and saved.score_id.length() == 36 and t.same(saved.position, 1) and saved.kept == true, "save_score", t.show(saved))

	var meta := {"level": 3, "class": "mage", "gear": {"staff": true}}
	var with_meta = yield(Howl.Scores.save_score(p2, 200.5, meta, "main"), "completed")
	var low = yield(Howl.Scores.save_score(p1, 50), "completed")
	var listed = yield(Howl.Scores.get_scores(10), "completed")
	var entry = listed.scores[0] if listed.error == null and listed.scores.size() > 0 else {}
	t.expect(with_meta.error == null and t.same(with_meta.position, 1) and entry.get("player_name") == p2 and t.same(entry.get("metadata"), meta), "save_score_metadata", "%s / %s" % [t.show(with_meta), t.show(entry)])

	var ok: bool = listed.error == null and listed.scores.size() == 3 and listed.period == null
	if ok:
		var expected := [[p2, 200.5], [p1, 100], [p1, 50]]
		for i in range(3):
			var e = listed.scores[i]
			ok = ok and e.player_name == expected[i][0] and t.same(e.score, expected[i][1]) and t.same(e.position, i + 1)
			ok = ok and e.has("score_id") and e.has("timestamp") and t.same(e.get("engine"), 3)
	var two = yield(Howl.Scores.get_scores(2), "completed")
	t.expect(ok and two.error == null and two.scores.size() == 2, "get_scores", "%s / %s" % [t.show(listed), t.show(two)])

	var all = yield(Howl.Scores.get_scores(0), "completed")
	t.expect(all.error == null and all.scores.size() == 3 and all.cursor == null, "get_scores_all", t.show(all))

	var mine = yield(Howl.Scores.get_scores_by_player(p1), "completed")
	t.expect(
		mine.error == null and mine.scores.size() == 2 and t.same(mine.scores[0].score, 100) and t.same(mine.scores[1].score, 50)
		and t.same(mine.scores[0].position, 2) and not mine.has("cursor"),
		"get_scores_by_player", t.show(mine))

	var top = yield(Howl.Scores.get_top_score_by_player(p1), "completed")
	var none = yield(Howl.Scores.get_top_score_by_player(t.unique("nobody")), "completed")
	t.expect(
		top.error == null and typeof(top.score) == TYPE_DICTIONARY and top.score.score_id == saved.score_id
		and none.error == null and none.score == null,
		"get_top_score_by_player", "%s / %s" % [t.show(top), t.show(none)])

	var by_id = yield(Howl.Scores.get_score_position(saved.score_id), "completed")
	t.expect(by_id.error == null and t.same(by_id.position, 2) and by_id.period == null, "score_position_by_id", t.show(by_id))

	var by_value = yield(Howl.Scores.get_score_position(150), "completed")
	var equal = yield(Howl.Scores.get_score_position(100.0), "completed")
	var best = yield(Howl.Scores.get_score_position(1000), "completed")
	t.expect(
		by_value.error == null and t.same(by_value.position, 2) and t.same(equal.position, 3) and t.same(best.position, 1),
		"score_position_by_value", "%s / %s / %s" % [t.show(by_value), t.show(equal), t.show(best)])

	var around = yield(Howl.Scores.get_scores_around(saved.score_id, 1), "completed")
	var around_default = yield(Howl.Scores.get_scores_around(60), "completed")
	t.expect(
		around.error == null and t.same(around.position, 2) and around.scores_above.size() == 1 and around.scores_below.size() == 1
		and around.scores_above[0].player_name == p2 and t.same(around.scores_below[0].score, 50)
		and around_default.error == null and t.same(around_default.position, 3) and around_default.scores_above.size() == 2,
		"scores_around", "%s / %s" % [t.show(around), t.show(around_default)])

	var weekly_name = t.unique("weekly")
	var weekly_saved = yield(Howl.Scores.save_score(weekly_name, 1000000 + OS.get_unix_time() % 1000, {}, "weekly"), "completed")
	var current = yield(Howl.Scores.get_scores(100, "weekly"), "completed")
	var previous = yield(Howl.Scores.get_scores(10, "weekly", -1), "completed")
	var p = current.period if current.error == null else null
	var found := false
	if current.error == null:
		for e in current.scores:
			found = found or e.player_name == weekly_name
	t.expect(
		weekly_saved.error == null and found and typeof(p) == TYPE_DICTIONARY and t.same(p.get("offset"), 0)
		and typeof(p.get("start")) == TYPE_STRING and typeof(p.get("end")) == TYPE_STRING and p.get("next_reset") == p.get("end")
		and previous.error == null and previous.scores.empty() and t.same(previous.period.offset, -1) and previous.period.end == p.start,
		"time_based_period", "%s / %s" % [t.show(current), t.show(previous)])

	# Names with every character a URL treats specially, and text beyond ASCII.
	var names := [t.unique("a b&c#d/e?f+g%h"), t.unique("Jösé Wölf"), t.unique_digits("狼 волк")]
	var why := ""
	for n in names:
		var s = yield(Howl.Scores.save_score(n, 5), "completed")
		var back = yield(Howl.Scores.get_scores_by_player(n), "completed")
		var best_of = yield(Howl.Scores.get_top_score_by_player(n), "completed")
		var data = yield(Howl.PlayerData.save_player_data(n, {"name": n}), "completed")
		var data_back = yield(Howl.PlayerData.get_player_data(n), "completed")
		if s.error != null or back.error != null or back.scores.size() != 1 or back.scores[0].player_name != n:
			why += "scores of %s: %s; " % [n, t.show(back)]
		elif best_of.error != null or typeof(best_of.score) != TYPE_DICTIONARY or best_of.score.score_id != s.score_id:
			why += "top of %s: %s; " % [n, t.show(best_of)]
		elif data.error != null or data_back.error != null or data_back.player_name != n or data_back.player_data.get("name") != n:
			why += "data of %s: %s; " % [n, t.show(data_back)]
	t.configure_a({"base_url": t.env("HOWL_FAULT_URL") + "/echo"})
	var echoed = yield(Howl.Scores.get_scores_by_player(names[0], 5, "main"), "completed")
	t.configure_a()
	var raw: String = str(echoed.get("path", ""))
	var slices := raw.split("/")
	var part: String = slices[6] if slices.size() > 6 else ""
	if raw.find("#") >= 0 or raw.find(" ") >= 0 or raw.count("?") != 1 or part.percent_decode() != names[0]:
		why += "request target %s" % raw
	t.expect(why == "", "names_encoded", why)

	var deleted = yield(Howl.Scores.delete_score(low.score_id), "completed")
	var after = yield(Howl.Scores.get_scores_by_player(p1), "completed")
	var again = yield(Howl.Scores.delete_score(low.score_id), "completed")
	t.expect(deleted.error == null and deleted.ok == true and after.scores.size() == 1 and t.code_of(again) == "ScoreNotFound", "delete_score", "%s / %s / %s" % [t.show(deleted), t.show(after), t.show(again)])

	var wiped = yield(Howl.Scores.wipe_leaderboard(), "completed")
	var emptied = yield(Howl.Scores.get_scores(), "completed")
	t.expect(wiped.error == null and wiped.ok == true and emptied.error == null and emptied.scores.empty(), "wipe_leaderboard", "%s / %s" % [t.show(wiped), t.show(emptied)])
