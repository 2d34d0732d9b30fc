await Howl.PlayerData.save_character_data("a_player", "Mage", {"hp": 5, "class": "mage"})
var mage = await Howl.PlayerData.get_character_data("a_player", "Mage")
var list = await Howl.PlayerData.get_characters("a_player")
for character in list.characters:
	print(character)
await Howl.PlayerData.delete_character_data("a_player", "Mage")
