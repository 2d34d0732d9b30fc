var me = await Howl.Players.get_current_player()
print(me.player_name, " is ", me.state)
