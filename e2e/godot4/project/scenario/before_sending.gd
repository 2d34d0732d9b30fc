extends RefCounted
## Checks before sending: each a clear InvalidParameter (or PlayerDataTooLarge), and nothing sent.

const TestHelper := preload("res://test_helper.gd")


func run(t: TestHelper) -> void:
	t.configure_a()
	var player := t.unique("checked")
	var empty: Dictionary = await Howl.Scores.save_score("", 10)
	var blank: Dictionary = await Howl.Scores.save_score("   ", 10)
	var register: Dictionary = await Howl.Players.register_player("", "", t.PASSWORD, t.PASSWORD)
	var data: Dictionary = await Howl.PlayerData.get_player_data("")
	t.expect(t.code_of(empty) == "InvalidParameter" and t.code_of(blank) == "InvalidParameter" and t.code_of(register) == "InvalidParameter"
		and t.code_of(data) == "InvalidParameter" and empty.error.get("field") == "player_name",
		"empty_player_name", "%s / %s / %s / %s" % [t.said(empty), t.said(blank), t.said(register), t.said(data)])

	var text_score: Dictionary = await Howl.Scores.save_score(player, "12")
	var nan_score: Dictionary = await Howl.Scores.save_score(player, NAN)
	var top: Dictionary = await Howl.Scores.get_top_score_by_player(player)
	t.expect(t.code_of(text_score) == "InvalidParameter" and t.code_of(nan_score) == "InvalidParameter" and t.ok(top) and top.score == null,
		"non_numeric_score", "%s / %s / nothing sent: %s" % [t.said(text_score), t.said(nan_score), t.said(top)])

	var meta: Dictionary = await Howl.Scores.save_score(player, 10, "level 3")
	var meta_array: Dictionary = await Howl.Scores.save_score(player, 10, [1, 2])
	var meta_list: Dictionary = await Howl.Scores.save_score(player, 10, {"items": ["sword"]})
	var meta_null: Dictionary = await Howl.Scores.save_score(player, 10, {"run": {"boss": null}})
	t.expect(t.code_of(meta) == "InvalidParameter" and t.code_of(meta_array) == "InvalidParameter"
		and t.code_of(meta_list) == "InvalidParameter" and meta_list.error.get("field") == "metadata.items"
		and t.code_of(meta_null) == "InvalidParameter" and meta_null.error.get("field") == "metadata.run.boss", "metadata_not_dictionary",
		"%s / %s" % [t.said(meta), t.said(meta_array)])

	var node := Node.new()
	var vector: Dictionary = await Howl.PlayerData.save_player_data(player, {"position": Vector2(3, 4)})
	var nested: Dictionary = await Howl.PlayerData.save_player_data(player, {"party": [{"leader": node}]})
	var resource: Dictionary = await Howl.PlayerData.save_character_data(player, "Mage", {"look": Color.RED})
	node.free()
	var stored: Dictionary = await Howl.PlayerData.get_player_data(player)
	t.expect(t.code_of(vector) == "InvalidParameter" and t.code_of(nested) == "InvalidParameter" and t.code_of(resource) == "InvalidParameter"
		and "Vector2" in vector.error.message and nested.error.get("field") == "player_data.party.0.leader" and t.ok(stored) and stored.version == 0,
		"player_data_engine_object", "%s / %s / %s / %s" % [t.said(vector), t.said(nested), t.said(resource), t.said(stored)])

	var big: Dictionary = await Howl.PlayerData.save_player_data(player, {"blob": "x".repeat(41000)})
	var fits: Dictionary = await Howl.PlayerData.save_player_data(player, {"blob": "x".repeat(40000)})
	t.expect(t.code_of(big) == "PlayerDataTooLarge" and t.ok(fits) and fits.version == 1, "player_data_too_large", "%s / %s" % [t.said(big), t.said(fits)])
