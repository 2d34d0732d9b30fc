get_tree().change_scene_to_file("res://addons/howl/scenes/player_auth/Login.tscn")
