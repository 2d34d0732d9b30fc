func _ready() -> void:
	var result: Dictionary = await Howl.ping()
	if result.error != null:
		push_error("Howl: %s (%s)" % [result.error.message, result.error.code])
	else:
		print("Howl is set up for ", result.name)
