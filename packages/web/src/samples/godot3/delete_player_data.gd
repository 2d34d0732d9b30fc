# Remove the gold only
yield(Howl.PlayerData.delete_player_data("a_player", ["gold"]), "completed")
# Remove everything
yield(Howl.PlayerData.delete_player_data("a_player"), "completed")
