extends RefCounted
## Checks made before sending: each returns null when the value is fine, else the error of the
## result, so nothing is sent that the server would refuse for a reason the game can see here.

const MAX_PLAYER_DATA_BYTES := 40960
const MAX_DEPTH := 64


static func name_error(value: Variant, field: String = "player_name") -> Variant:
	if not (value is String or value is StringName) or str(value).strip_edges() == "":
		var what := "a player name" if field == "player_name" else "a " + field.replace("_", " ")
		return _error("InvalidParameter", "Please enter %s." % what, field)
	return null


static func score_error(score: Variant) -> Variant:
	if not (score is int or score is float) or is_nan(float(score)) or is_inf(float(score)):
		return _error("InvalidParameter", "The score must be a number, not %s." % type_string(typeof(score)), "score")
	return null


static func metadata_error(metadata: Variant) -> Variant:
	if not metadata is Dictionary:
		return _error("InvalidParameter", "Score metadata must be a Dictionary, not %s." % type_string(typeof(metadata)), "metadata")
	var bad: Variant = json_error(metadata, "metadata")
	if bad != null:
		return bad
	return _metadata_values_error(metadata, "metadata")


## Metadata holds text, numbers, true/false and Dictionaries of them: the server refuses lists and null.
static func _metadata_values_error(value: Dictionary, path: String) -> Variant:
	for key in value:
		var inner: Variant = value[key]
		if inner is Dictionary:
			var bad: Variant = _metadata_values_error(inner, "%s.%s" % [path, key])
			if bad != null:
				return bad
		elif inner == null or inner is Array:
			return _error("InvalidParameter", "%s.%s is %s: metadata holds text, numbers, true/false and Dictionaries." % [path, key, "null" if inner == null else "a list"], "%s.%s" % [path, key])
	return null


static func player_data_error(data: Variant) -> Variant:
	if not data is Dictionary:
		return _error("InvalidParameter", "Player data must be a Dictionary, not %s." % type_string(typeof(data)), "player_data")
	var bad: Variant = json_error(data, "player_data")
	if bad != null:
		return bad
	var size := JSON.stringify(data).to_utf8_buffer().size()
	if size > MAX_PLAYER_DATA_BYTES:
		return _error("PlayerDataTooLarge", "Player data is %d bytes as JSON; the limit is 40,960 bytes." % size, "player_data")
	return null


static func keys_error(keys: Variant) -> Variant:
	if not keys is Array:
		return _error("InvalidParameter", "keys must be an Array of key names.", "keys")
	for key in keys:
		if not (key is String or key is StringName):
			return _error("InvalidParameter", "keys must be an Array of key names.", "keys")
	return null


## The first value that JSON cannot hold (an engine object such as a Vector2, a Node or a
## Resource, a number that is not finite), named by its path.
static func json_error(value: Variant, path: String, depth: int = 0) -> Variant:
	if depth > MAX_DEPTH:
		return _error("InvalidParameter", "%s nests deeper than %d levels." % [path, MAX_DEPTH], path)
	match typeof(value):
		TYPE_NIL, TYPE_BOOL, TYPE_INT, TYPE_STRING, TYPE_STRING_NAME:
			return null
		TYPE_FLOAT:
			if is_nan(value) or is_inf(value):
				return _error("InvalidParameter", "%s is not a finite number." % path, path)
			return null
		TYPE_ARRAY:
			for i in value.size():
				var bad: Variant = json_error(value[i], "%s.%d" % [path, i], depth + 1)
				if bad != null:
					return bad
			return null
		TYPE_DICTIONARY:
			for key in value:
				if not (key is String or key is StringName):
					return _error("InvalidParameter", "%s has a key that is not text (%s)." % [path, str(key)], path)
				var bad: Variant = json_error(value[key], "%s.%s" % [path, key], depth + 1)
				if bad != null:
					return bad
			return null
	var kind := type_string(typeof(value))
	if value is Object:
		kind = value.get_class() if is_instance_valid(value) else "freed Object"
	return _error("InvalidParameter", "%s holds a %s, which is not JSON: convert it to numbers or text first." % [path, kind], path)


static func _error(code: String, message: String, field: String) -> Dictionary:
	return {"code": code, "message": message, "field": field}
