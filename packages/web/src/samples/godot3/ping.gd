func _ready():
	var result = yield(Howl.ping(), "completed")
	if result.error != null:
		push_error("Howl: %s (%s)" % [result.error.message, result.error.code])
	else:
		print("Howl is set up for ", result.name)
