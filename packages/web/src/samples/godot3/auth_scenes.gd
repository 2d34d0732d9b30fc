get_tree().change_scene("res://addons/howl/scenes/player_auth/Login.tscn")
