# In your first scene (or any autoload that runs before Howl is used)
func _ready() -> void:
	Howl.configure({
		"api_key": "YOUR_API_KEY",
		"game_id": "YOUR_GAME_ID",
		"base_url": "http://localhost:8080", # your Howl server
		"log_level": 1, # 0: errors, 1: info, 2: debug
	})
