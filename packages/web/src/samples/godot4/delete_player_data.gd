# Remove the gold only
await Howl.PlayerData.delete_player_data("a_player", ["gold"])
# Remove everything
await Howl.PlayerData.delete_player_data("a_player")
