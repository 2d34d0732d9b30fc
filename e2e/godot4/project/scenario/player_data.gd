extends RefCounted
## Player data on game A: documents, merges, versions, deletes, characters and the game state.

const TestHelper := preload("res://test_helper.gd")


func run(t: TestHelper) -> void:
	t.configure_a()
	var player := t.unique("keeper")
	var saved: Dictionary = await Howl.PlayerData.save_player_data(player, {"level": 3, "gold": 10})
	var read: Dictionary = await Howl.PlayerData.get_player_data(player)
	t.expect(t.ok(saved) and saved.version == 1 and t.ok(read) and read.player_name == player and t.same(read.player_data, {"level": 3, "gold": 10})
		and read.version == 1 and read.updated_at is String, "player_data_save_get", "%s / %s" % [t.said(saved), t.said(read)])

	var merged: Dictionary = await Howl.PlayerData.save_player_data(player, {"gold": 25}, false)
	t.expect(t.ok(merged) and t.same(merged.player_data, {"level": 3, "gold": 25}) and merged.version == 2, "player_data_merge", t.said(merged))

	var stale: Dictionary = await Howl.PlayerData.save_player_data(player, {"level": 9}, true, 1)
	var fresh: Dictionary = await Howl.PlayerData.save_player_data(player, {"level": 4, "gold": 25, "gems": 1}, true, 2)
	t.expect(t.code_of(stale) == "VersionConflict" and stale.error.get("current_version") == 2 and t.ok(fresh) and fresh.version == 3,
		"player_data_if_version", "%s / %s" % [t.said(stale), t.said(fresh)])

	var trimmed: Dictionary = await Howl.PlayerData.delete_player_data(player, ["gold", "gems"])
	t.expect(t.ok(trimmed) and t.same(trimmed.player_data, {"level": 4}) and trimmed.version == 4, "player_data_delete_keys", t.said(trimmed))

	var cleared: Dictionary = await Howl.PlayerData.delete_player_data(player)
	read = await Howl.PlayerData.get_player_data(player)
	t.expect(t.ok(cleared) and cleared.version == 0 and cleared.player_data.is_empty() and t.ok(read) and read.version == 0 and read.player_data.is_empty(),
		"player_data_delete_all", "%s / %s" % [t.said(cleared), t.said(read)])

	var mage: Dictionary = await Howl.PlayerData.save_character_data(player, "Mage", {"hp": 5})
	var rogue: Dictionary = await Howl.PlayerData.save_character_data(player, "Rogue", {"hp": 3})
	var more: Dictionary = await Howl.PlayerData.save_character_data(player, "Mage", {"mp": 9}, false)
	var mage_read: Dictionary = await Howl.PlayerData.get_character_data(player, "Mage")
	var names: Dictionary = await Howl.PlayerData.get_characters(player)
	var rogue_gone: Dictionary = await Howl.PlayerData.delete_character_data(player, "Rogue")
	var mage_trim: Dictionary = await Howl.PlayerData.delete_character_data(player, "Mage", ["mp"])
	var own: Dictionary = await Howl.PlayerData.get_player_data(player)
	var sorted_names: Array = names.characters.duplicate()
	sorted_names.sort()
	t.expect(t.ok(mage) and mage.character == "Mage" and t.ok(rogue) and t.ok(more) and t.ok(mage_read) and t.same(mage_read.player_data, {"hp": 5, "mp": 9})
		and mage_read.character == "Mage" and t.ok(names) and sorted_names == ["Mage", "Rogue"] and t.ok(rogue_gone) and rogue_gone.version == 0
		and t.ok(mage_trim) and t.same(mage_trim.player_data, {"hp": 5}) and own.player_data.is_empty(),
		"character_data", "%s / %s / %s / %s" % [t.said(mage_read), t.said(names), t.said(rogue_gone), t.said(mage_trim)])

	var state: Dictionary = await Howl.PlayerData.save_player_data("__game__", {"season": 2, "event": "howl-week"})
	var state_read: Dictionary = await Howl.PlayerData.get_player_data("__game__")
	t.expect(t.ok(state) and t.ok(state_read) and t.same(state_read.player_data, {"season": 2, "event": "howl-week"}), "game_state",
		"%s / %s" % [t.said(state), t.said(state_read)])
