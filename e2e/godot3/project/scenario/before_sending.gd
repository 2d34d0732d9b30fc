extends Reference
# Checks before sending: each a clear InvalidParameter (or PlayerDataTooLarge), and nothing sent.
# The plugin points at the echo server here, so a request that went out would show in the result.


func run(t):
	t.configure_a({"base_url": t.env("HOWL_FAULT_URL") + "/echo"})
	var name = t.unique("checked")

	var empty = yield(Howl.Scores.save_score("", 10), "completed")
	var blank = yield(Howl.Scores.save_score("   ", 10), "completed")
	var data_blank = yield(Howl.PlayerData.get_player_data(""), "completed")
	t.expect(_refused(t, empty) and _refused(t, blank) and _refused(t, data_blank), "empty_player_name", "%s / %s / %s" % [t.show(empty), t.show(blank), t.show(data_blank)])

	var text = yield(Howl.Scores.save_score(name, "12"), "completed")
	var missing = yield(Howl.Scores.save_score(name, null), "completed")
	t.expect(_refused(t, text) and _refused(t, missing) and text.error.get("field") == "score", "non_numeric_score", "%s / %s" % [t.show(text), t.show(missing)])

	var list = yield(Howl.Scores.save_score(name, 1, [1, 2]), "completed")
	var word = yield(Howl.Scores.save_score(name, 1, "level 3"), "completed")
	var inner_list = yield(Howl.Scores.save_score(name, 1, {"items": ["sword"]}), "completed")
	var inner_null = yield(Howl.Scores.save_score(name, 1, {"run": {"boss": null}}), "completed")
	t.expect(_refused(t, list) and _refused(t, word) and list.error.get("field") == "metadata"
		and _refused(t, inner_list) and inner_list.error.get("field") == "metadata.items"
		and _refused(t, inner_null) and inner_null.error.get("field") == "metadata.run.boss",
		"metadata_not_dictionary", "%s / %s / %s / %s" % [t.show(list), t.show(word), t.show(inner_list), t.show(inner_null)])

	var node := Node.new()
	var vector = yield(Howl.PlayerData.save_player_data(name, {"pos": Vector2(1, 2)}), "completed")
	var nested = yield(Howl.PlayerData.save_player_data(name, {"bag": [{"item": node}]}), "completed")
	var colour = yield(Howl.Scores.save_score(name, 1, {"tint": Color(1, 0, 0)}), "completed")
	node.free()
	t.expect(
		_refused(t, vector) and _refused(t, nested) and _refused(t, colour)
		and vector.error.message.find("Vector2") >= 0 and nested.error.message.find("Node") >= 0,
		"player_data_engine_object", "%s / %s / %s" % [t.show(vector), t.show(nested), t.show(colour)])

	var big := {"blob": _blob(41000)}
	var too_large = yield(Howl.PlayerData.save_player_data(name, big), "completed")
	var just_fits = {"blob": _blob(40000)}
	var fits = yield(Howl.PlayerData.save_player_data(name, just_fits), "completed")
	t.expect(
		t.code_of(too_large) == "PlayerDataTooLarge" and not too_large.has("headers")
		and fits.error == null and fits.has("headers"),
		"player_data_too_large", "%s / %s" % [t.show(too_large), t.code_of(fits)])


# Refused before sending: InvalidParameter, and no echo of a request in the result.
static func _refused(t, result) -> bool:
	return t.code_of(result) == "InvalidParameter" and not result.has("headers") and not result.has("path")


static func _blob(size: int) -> String:
	var text := "x"
	while text.length() < size:
		text += text
	return text.substr(0, size)
