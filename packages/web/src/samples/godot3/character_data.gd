yield(Howl.PlayerData.save_character_data("a_player", "Mage", {"hp": 5, "class": "mage"}), "completed")
var mage = yield(Howl.PlayerData.get_character_data("a_player", "Mage"), "completed")
var list = yield(Howl.PlayerData.get_characters("a_player"), "completed")
for character in list.characters:
	print(character)
yield(Howl.PlayerData.delete_character_data("a_player", "Mage"), "completed")
