extends Reference
# Player data on game A: documents, merges, versions, deletes, characters and the game state.


func run(t):
	t.configure_a()
	var who = t.unique("keeper")
	var saved = yield(Howl.PlayerData.save_player_data(who, {"level": 3, "gold": 10}), "completed")
	var got = yield(Howl.PlayerData.get_player_data(who), "completed")
	var fresh = yield(Howl.PlayerData.get_player_data(t.unique("newcomer")), "completed")
	t.expect(
		saved.error == null and t.same(saved.version, 1) and got.error == null and got.player_name == who
		and t.same(got.player_data, {"level": 3, "gold": 10}) and t.same(got.version, 1) and typeof(got.updated_at) == TYPE_STRING
		and fresh.error == null and fresh.player_data.empty() and t.same(fresh.version, 0) and fresh.updated_at == null,
		"player_data_save_get", "%s / %s / %s" % [t.show(saved), t.show(got), t.show(fresh)])

	var merged = yield(Howl.PlayerData.save_player_data(who, {"gold": 25}, false), "completed")
	t.expect(merged.error == null and t.same(merged.player_data, {"level": 3, "gold": 25}) and t.same(merged.version, 2), "player_data_merge", t.show(merged))

	var conflict = yield(Howl.PlayerData.save_player_data(who, {"gold": 1}, false, 1), "completed")
	var matched = yield(Howl.PlayerData.save_player_data(who, {"gold": 30}, false, 2), "completed")
	var first_only = yield(Howl.PlayerData.save_player_data(t.unique("first"), {"a": 1}, true, 0), "completed")
	t.expect(
		t.code_of(conflict) == "VersionConflict" and t.same(conflict.error.get("current_version"), 2)
		and matched.error == null and t.same(matched.version, 3) and t.same(matched.player_data.gold, 30)
		and first_only.error == null and t.same(first_only.version, 1),
		"player_data_if_version", "%s / %s / %s" % [t.show(conflict), t.show(matched), t.show(first_only)])

	var trimmed = yield(Howl.PlayerData.delete_player_data(who, ["gold"]), "completed")
	t.expect(trimmed.error == null and t.same(trimmed.player_data, {"level": 3}), "player_data_delete_keys", t.show(trimmed))

	var removed = yield(Howl.PlayerData.delete_player_data(who), "completed")
	var gone = yield(Howl.PlayerData.get_player_data(who), "completed")
	t.expect(
		removed.error == null and removed.player_data.empty() and t.same(removed.version, 0)
		and gone.error == null and gone.player_data.empty() and t.same(gone.version, 0),
		"player_data_delete_all", "%s / %s" % [t.show(removed), t.show(gone)])

	var hero = yield(Howl.PlayerData.save_character_data(who, "Mage", {"hp": 5, "spells": ["fire"]}), "completed")
	var merged_hero = yield(Howl.PlayerData.save_character_data(who, "Mage", {"hp": 6}, false, 1), "completed")
	yield(Howl.PlayerData.save_character_data(who, "Rogue Ünter", {"hp": 2}), "completed")
	var hero_back = yield(Howl.PlayerData.get_character_data(who, "Mage"), "completed")
	var listed = yield(Howl.PlayerData.get_characters(who), "completed")
	var hero_gone = yield(Howl.PlayerData.delete_character_data(who, "Mage"), "completed")
	var rogue_trimmed = yield(Howl.PlayerData.delete_character_data(who, "Rogue Ünter", ["hp"]), "completed")
	var own = yield(Howl.PlayerData.get_player_data(who), "completed")
	var names: Array = listed.characters if listed.error == null else []
	names.sort()
	t.expect(
		hero.error == null and hero.character == "Mage" and merged_hero.error == null
		and t.same(hero_back.player_data, {"hp": 6, "spells": ["fire"]}) and hero_back.character == "Mage"
		and t.same(names, ["Mage", "Rogue Ünter"]) and listed.player_name == who
		and hero_gone.error == null and hero_gone.player_data.empty()
		and rogue_trimmed.error == null and rogue_trimmed.player_data.empty() and own.player_data.empty(),
		"character_data", "%s / %s / %s / %s" % [t.show(hero_back), t.show(listed), t.show(hero_gone), t.show(rogue_trimmed)])

	var season := {"season": 2, "run": t.env("HOWL_RUN")}
	var state = yield(Howl.PlayerData.save_player_data(Howl.PlayerData.GAME_STATE, season), "completed")
	var state_back = yield(Howl.PlayerData.get_player_data("__game__"), "completed")
	t.expect(
		state.error == null and state_back.error == null and t.same(state_back.player_data, season)
		and state_back.player_name == "__game__",
		"game_state", "%s / %s" % [t.show(state), t.show(state_back)])
