var me = yield(Howl.Players.get_current_player(), "completed")
print(me.player_name, " is ", me.state)
