yield(Howl.Players.logout_player(), "completed")
# Everywhere:
yield(Howl.Players.logout_player(true), "completed")
