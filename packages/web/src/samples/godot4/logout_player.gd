await Howl.Players.logout_player()
# Everywhere:
await Howl.Players.logout_player(true)
